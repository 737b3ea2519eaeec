package org.datampi.hive.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.datampi.hive.conf.JobPlan;
import org.datampi.status.RankStatus;
import org.datampi.status.StatusSender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MapReduce-shaped job as Hadoop's JobClient polls it, over groups stood in for by a shell ({@link StandInGroups}):
 * the poll reads the job's state and prints what its attempts said, on the polling thread.
 */
class RunningJobTest {
    private static final JobID ID = new JobID("datampi7", 1);

    @TempDir
    Path dir;
    private final List<RankPool> pools = new ArrayList<>();
    private final List<String> printed = new CopyOnWriteArrayList<>();
    private final List<Thread> printers = new CopyOnWriteArrayList<>();
    /** Whether the next attempt's group loses a rank (else its job is reported done). */
    private final List<Boolean> losesARank = new ArrayList<>();

    @AfterEach
    void stopGroups() {
        pools.forEach(RankPool::close);
    }

    @Test
    void aSucceededJobIsDoneForHadoopWithItsProgressFull() throws Exception {
        losesARank.add(false);
        RunningJob job = submit();

        JobStatus status = awaitEnd(job);
        assertEquals(JobStatus.State.SUCCEEDED, status.getState());
        assertEquals(1.0f, status.getMapProgress());
        assertEquals(1.0f, status.getReduceProgress());
        assertEquals(List.of(), printed);
    }

    /** The retry runs on the attempts' thread; what it says reaches Hive's console only through the poll. */
    @Test
    void aRetrysLinesArePrintedByThePoll() throws Exception {
        losesARank.addAll(List.of(true, false));
        RunningJob job = submit();

        JobStatus status = awaitEnd(job);
        assertEquals(JobStatus.State.SUCCEEDED, status.getState(), status.getFailureInfo());
        assertEquals(2, printed.size(), printed.toString());
        assertTrue(printed.get(0).startsWith("datampi: Stage-1 " + ID + " (attempt 1 of 2) lost a rank: "),
                printed.get(0));
        assertTrue(printers.stream().allMatch(Thread.currentThread()::equals), "printed on the polling thread only");
    }

    @Test
    void aFailedJobCarriesItsError() throws Exception {
        losesARank.addAll(List.of(true, true));
        RunningJob job = submit();

        JobStatus status = awaitEnd(job);
        assertEquals(JobStatus.State.FAILED, status.getState());
        assertTrue(status.getFailureInfo().startsWith("mpidrun exited with code 137"), status.getFailureInfo());
        assertEquals(job.outcome().failure().orElseThrow(), status.getFailureInfo());
        assertTrue(job.outcome().rankLost());
    }

    private RunningJob submit() {
        JobConf conf = new JobConf(false);
        ConsoleRelay console = new ConsoleRelay(line -> {
            printed.add(line);
            printers.add(Thread.currentThread());
        });
        return new RunningJob(ID, conf, dir.toString(), new JobPlan(2, 1, 2), "Stage-1", console, List.of(),
                this::launch);
    }

    /** Polls as Hadoop's JobClient does until the job ends; returns its last status. */
    private static JobStatus awaitEnd(RunningJob job) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            JobStatus status = job.status();
            if (status.isJobComplete()) {
                return status;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the job did not end within 30 s");
    }

    private MpidrunJob launch(String attemptId, BooleanSupplier stopped) {
        try {
            boolean lose = losesARank.remove(0);
            StandInGroups groups = new StandInGroups(dir, System::nanoTime);
            RankPool pool = groups.start(lose ? "read job; kill -9 $$" : "cat", 60);
            pools.add(pool);
            MpidrunJob job = pool.trySubmit(attemptId, List.of("--job-id", attemptId)).orElseThrow();
            if (!lose) {
                try (StatusSender ranks = groups.ranks()) {
                    ranks.send(new RankStatus.JobDone(attemptId));
                }
            }
            return job;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
