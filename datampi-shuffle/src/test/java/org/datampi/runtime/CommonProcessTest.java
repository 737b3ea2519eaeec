package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.datampi.mpid.JobSetup;
import org.datampi.mpid.MPI_D;
import org.datampi.mpid.MpidConf;
import org.datampi.mpid.TaskProgram;
import org.datampi.shuffle.ShuffleSettings;
import org.datampi.shuffle.codec.BlockCodec;
import org.datampi.status.StatusSender;
import org.datampi.transport.InMemoryTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's life on a rank ({@link CommonProcess#run}) over the in-memory transport: its program made for the job, set
 * up once, its O tasks and then its A tasks run with the pairs sent between them, closed; its directory gone after,
 * whether it succeeded or failed; the first failure reported naming the task. One rank: MPI_D binds the task of its
 * calls JVM-wide, as a rank process runs one task at a time.
 */
class CommonProcessTest {
    /** What each job's program did, in order: by job id (the program's first argument). */
    private static final Map<String, List<String>> DONE = new ConcurrentHashMap<>();

    @TempDir
    Path dir;
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();

    /** Each O task sends 4 pairs (its keys, its number); each A task records the keys it received, in order. */
    public static final class KeysProgram implements TaskProgram {
        /** This job's record: the program is made for the job, so set up, tasks and close share it. */
        private List<String> done;

        @Override
        public void setUpJob(String[] args, JobSetup setup) {
            done = DONE.get(args[0]);
            done.add("set up");
        }

        @Override
        public void runTask(String[] args) throws Exception {
            MPI_D.Init(args, MPI_D.Mode.Common, Map.of(MpidConf.KEY_CLASS, Text.class.getName(),
                    MpidConf.VALUE_CLASS, IntWritable.class.getName()));
            if (MPI_D.COMM_BIPARTITE_O != null) {
                int task = MPI_D.Comm_rank(MPI_D.COMM_BIPARTITE_O);
                done.add("O " + task);
                if (args.length > 1 && Integer.parseInt(args[1]) == task) {
                    throw new IOException("bad record in split " + task);
                }
                for (int i = 0; i < 4; i++) {
                    MPI_D.Send(new Text("key-" + (task * 4 + i)), new IntWritable(task));
                }
            } else {
                List<String> keys = new ArrayList<>();
                for (Object[] pair = MPI_D.Recv(); pair != null; pair = MPI_D.Recv()) {
                    keys.add(pair[0].toString());
                }
                done.add("A " + MPI_D.Comm_rank(MPI_D.COMM_BIPARTITE_A) + " " + String.join(",", keys));
            }
            MPI_D.Finalize();
        }

        @Override
        public void close() {
            done.add("closed");
        }
    }

    @Test
    void aJobsTasksRunOnItsProgramBetweenSetUpAndClose() throws Exception {
        run("job_1");
        assertEquals(List.of(), failures);
        List<String> done = DONE.get("job_1");
        assertEquals("set up", done.get(0));
        assertEquals(List.of("O 0", "O 1", "O 2"), done.subList(1, 4).stream().sorted().toList(), "O tasks first");
        List<String> keys = new ArrayList<>();
        for (String aTask : done.subList(4, 6)) {
            List<String> received = List.of(aTask.split(" ")[2].split(","));
            assertEquals(received.stream().sorted().toList(), received, "an A task's pairs come in key order");
            keys.addAll(received);
        }
        assertEquals(Stream.of(0, 1, 2).flatMap(task -> Stream.of(0, 1, 2, 3).map(i -> "key-" + (task * 4 + i)))
                .sorted().toList(), keys.stream().sorted().toList(), "every pair reached an A task once");
        assertTrue(done.get(4).startsWith("A 0 ") && done.get(5).startsWith("A 1 "), done.toString());
        assertEquals("closed", done.get(6));
        assertEquals(7, done.size());
        assertNothingLeftOf("job_1");
    }

    /** A task's error is the job's failure, naming the task; the program is closed and its directory goes all the same. */
    @Test
    void aFailingTaskFailsTheJobNamingTheTask() throws Exception {
        run("job_2", "1");
        assertEquals(1, failures.size(), failures.toString());
        TaskFailedException failure = assertInstanceOf(TaskFailedException.class, failures.get(0));
        assertTrue(failure.getMessage().startsWith("O task 1"), failure.getMessage());
        assertEquals("bad record in split 1", failure.getCause().getMessage());
        List<String> done = DONE.get("job_2");
        assertFalse(done.stream().anyMatch(step -> step.startsWith("A ")), "no A task after a failed O task");
        assertEquals("closed", done.get(done.size() - 1));
        assertNothingLeftOf("job_2");
    }

    /** One rank runs job JOB of 3 O tasks and 2 A tasks on a new KeysProgram with the arguments JOB and MORE. */
    private void run(String job, String... more) {
        DONE.put(job, Collections.synchronizedList(new ArrayList<>()));
        List<String> args = new ArrayList<>(List.of("--job-id", job, "-O", "3", "-A", "2",
                KeysProgram.class.getName(), job));
        args.addAll(List.of(more));
        ShuffleSettings settings = new ShuffleSettings(0.05, 6, 64 * 1024, BlockCodec.NONE, dir.resolve("local"), 10,
                10, ShuffleSettings.DEFAULT_LOCALITY_WAIT);
        new CommonProcess(LaunchArguments.parse(args.toArray(String[]::new)),
                ProgramClass.forName(KeysProgram.class.getName()), 0, 1, "host0", Optional.of(List.of("host0")),
                settings, new InMemoryTransport(1).endpoint(0), "in-memory",
                this::abort, StatusSender.fromEnvironment(Map.of())).run();
    }

    /**
     * The test's JobFailure: records the first failure and cleans up, as JobAbort does, but returns (JobAbort ends the
     * process; here the failed job's engine and heartbeat threads, daemons, stay behind in the test's JVM).
     */
    private synchronized void abort(Throwable cause, Runnable cleanup) {
        if (failures.isEmpty()) {
            failures.add(cause);
            cleanup.run();
        }
    }

    /** No directory of JOB's ranks under the local directory. */
    private void assertNothingLeftOf(String job) throws IOException {
        try (Stream<Path> files = Files.walk(dir.resolve("local"))) {
            List<Path> left = files.filter(path -> path.toString().contains(job)).toList();
            assertEquals(List.of(), left, "the rank's directory of " + job + " is gone");
        }
    }
}
