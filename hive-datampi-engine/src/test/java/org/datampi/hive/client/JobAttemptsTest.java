package org.datampi.hive.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.apache.hadoop.conf.Configuration;
import org.datampi.hive.conf.DataMPISettings;
import org.datampi.status.RankStatus;
import org.datampi.status.StatusSender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MapReduce-shaped job's attempts over groups stood in for by a shell ({@link StandInGroups}): which failures run
 * the stage again, on which thread, and what ends the job.
 */
class JobAttemptsTest {
    /** A group that reads its job, then loses a process (as kill -9 of a rank ends mpirun). */
    private static final String LOSES_A_RANK = "read job; kill -9 $$";
    /** A group that reads its job, then fails by an error of the job's own. */
    private static final String FAILS = "read job; exit 1";
    /** A group that runs its jobs, whose ends the test reports for its ranks. */
    private static final String SUCCEEDS = "cat";
    /** A group that runs its job until stopped. */
    private static final String RUNS_ON = "read job; sleep 60";

    @TempDir
    Path dir;
    private final List<RankPool> pools = new ArrayList<>();
    private final List<String> said = new CopyOnWriteArrayList<>();
    private final List<String> launched = new CopyOnWriteArrayList<>();
    private final List<Thread> launchThreads = new CopyOnWriteArrayList<>();
    private final AtomicInteger discards = new AtomicInteger();
    /** The scripts of the groups the next attempts get, in order. */
    private List<String> scripts = new ArrayList<>();

    @AfterEach
    void stopGroups() {
        pools.forEach(RankPool::close);
    }

    @Test
    void anAttemptThatLostARankRunsAgainOnTheAttemptsThread() throws Exception {
        JobAttempts job = start(List.of(LOSES_A_RANK, SUCCEEDS), 1);

        assertEquals(MpidrunJob.State.SUCCEEDED, job.end().get(30, TimeUnit.SECONDS));
        assertEquals(List.of("job_1", "job_1_2"), launched, "the retry has an id of its own");
        assertEquals(1, discards.get(), "what the lost attempt wrote went before the retry");
        assertEquals(Thread.currentThread(), launchThreads.get(0), "the first attempt starts on the caller's thread");
        assertEquals("datampi-attempts-job_1", launchThreads.get(1).getName());
        assertTrue(said.size() == 2 && said.get(0).startsWith("datampi: Stage-1 job_1 (attempt 1 of 2) lost a rank: ")
                && said.get(1).equals("datampi: Stage-1 runs again on a fresh group of ranks (attempt 2 of 2, "
                        + DataMPISettings.STAGE_RETRIES + "=1)"), said.toString());
        assertEquals("job_1_2", job.current().id());
    }

    @Test
    void aJobsOwnErrorIsNotRunAgain() throws Exception {
        JobAttempts job = start(List.of(FAILS, SUCCEEDS), 1);

        assertEquals(MpidrunJob.State.FAILED, job.end().get(30, TimeUnit.SECONDS));
        assertEquals(List.of("job_1"), launched);
        assertEquals(0, discards.get());
        assertEquals(List.of(), said);
    }

    @Test
    void withoutRetriesALostRankEndsTheJob() throws Exception {
        JobAttempts job = start(List.of(LOSES_A_RANK, SUCCEEDS), 0);

        assertEquals(MpidrunJob.State.FAILED, job.end().get(30, TimeUnit.SECONDS));
        assertEquals(List.of("job_1"), launched);
        assertTrue(job.current().rankLost());
    }

    /** A retry over files it could not remove could double rows: the lost attempt's failure stands. */
    @Test
    void anAttemptWhoseOutputCannotBeRemovedIsTheJobsEnd() throws Exception {
        scripts = new ArrayList<>(List.of(LOSES_A_RANK, SUCCEEDS));
        JobAttempts job = JobAttempts.start("job_1", attempts(1), this::launch, () -> {
            discards.incrementAndGet();
            throw new IOException("read-only");
        });

        assertEquals(MpidrunJob.State.FAILED, job.end().get(30, TimeUnit.SECONDS));
        assertEquals(List.of("job_1"), launched);
        assertEquals(1, discards.get());
    }

    /** A retry that cannot start (no group within the stage's deadline) ends the job with why: Hive's poll ends. */
    @Test
    void aRetryThatCannotStartEndsTheJobWithWhy() throws Exception {
        scripts = new ArrayList<>(List.of(LOSES_A_RANK));
        JobAttempts job = JobAttempts.start("job_1", attempts(1), (attemptId, stopped) -> {
            if (!attemptId.equals("job_1")) {
                throw new IllegalStateException("no free group of ranks within the stage's deadline");
            }
            return launch(attemptId, stopped);
        }, discards::incrementAndGet);

        ExecutionException ended = assertThrows(ExecutionException.class, () -> job.end().get(30, TimeUnit.SECONDS));
        assertEquals("no free group of ranks within the stage's deadline", ended.getCause().getMessage());
    }

    @Test
    void aKillEndsTheJobWithoutAnotherAttempt() throws Exception {
        JobAttempts job = start(List.of(RUNS_ON, SUCCEEDS), 1);
        job.kill();

        assertEquals(MpidrunJob.State.KILLED, job.end().get(30, TimeUnit.SECONDS));
        assertEquals(List.of("job_1"), launched);
    }

    /** The job's attempts, each on a group that runs the next of SCRIPTS, with RETRIES allowed. */
    private JobAttempts start(List<String> scripts, int retries) {
        this.scripts = new ArrayList<>(scripts);
        return JobAttempts.start("job_1", attempts(retries), this::launch, discards::incrementAndGet);
    }

    private StageAttempts attempts(int retries) {
        Configuration conf = new Configuration(false);
        conf.setInt(DataMPISettings.STAGE_RETRIES, retries);
        return new StageAttempts(said::add, conf, "Stage-1");
    }

    /** An attempt on a new stand-in group running the next script: the job's end reported for one that succeeds. */
    private MpidrunJob launch(String attemptId, BooleanSupplier stopped) {
        launched.add(attemptId);
        launchThreads.add(Thread.currentThread());
        try {
            String script = scripts.remove(0);
            RankPool pool = new StandInGroups(dir, System::nanoTime).start(script, 60);
            pools.add(pool);
            MpidrunJob job = pool.trySubmit(attemptId, List.of("--job-id", attemptId)).orElseThrow();
            if (script.equals(SUCCEEDS)) {
                try (StatusSender ranks = new StandInGroups(dir, System::nanoTime).ranks()) {
                    ranks.send(new RankStatus.JobDone(attemptId));
                }
            }
            return job;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
