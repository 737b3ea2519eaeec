package org.datampi.hive.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The rank pool's side of its group's idle limit, and which failures of its job are a lost rank, with a process that
 * stands in for mpidrun (cat or a shell reads its jobs).
 */
class RankPoolTest {
    @Test
    void aPoolIsRetiredBeforeItsRanksWouldEndByThemselves() throws Exception {
        // Ranks that end after 2 idle seconds: the pool takes no job from 1 s on (a tenth before, at least 1 s).
        try (RankPool pool = RankPool.start(List.of("cat"), 2)) {
            assertTrue(pool.isIdle(), "a new pool takes jobs");
            Thread.sleep(2_100);
            assertFalse(pool.isIdle(), "close to its idle limit the pool takes no job");
            assertTrue(pool.hasEnded(), "and is to be replaced");
            assertTrue(pool.trySubmit("job_1", List.of("--job-id", "job_1")).isEmpty());
        }
    }

    @Test
    void aFinishedJobRestartsTheIdleClock() throws Exception {
        try (RankPool pool = RankPool.start(List.of("cat"), 2)) {
            Thread.sleep(700);
            // cat echoes the job's line; this one is the line with which rank 0 ends a job.
            assertTrue(pool.trySubmit("job_1", List.of("datampi: job job_1 done")).isPresent());
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!pool.isIdle() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            Thread.sleep(700);
            assertTrue(pool.isIdle(), "1.4 s after the start but 0.7 s after the job's end the pool takes jobs");
        }
    }

    @Test
    void aPoolThatRunsAJobIsNeitherIdleNorRetired() throws Exception {
        try (RankPool pool = RankPool.start(List.of("cat"), 2)) {
            assertTrue(pool.trySubmit("job_1", List.of("--job-id", "job_1")).isPresent());
            Thread.sleep(2_100);
            assertFalse(pool.isIdle());
            assertFalse(pool.hasEnded(), "a running job keeps its pool");
        }
    }

    /** A rank killed (or crashed) by a signal: mpirun's exit status says so, whatever its peers reported after it. */
    @Test
    void aRankEndedByASignalIsALostRank() throws Exception {
        assertTrue(failedJob("echo 'datampi: job failed on rank 0 (h1), O task 2: java.io.IOException: peer gone'; "
                + "kill -9 $$").rankLost());
    }

    @Test
    void aRanksReportOfAPeerItNoLongerHearsIsALostRank() throws Exception {
        assertTrue(failedJob("echo 'datampi: job failed on rank 0 (h1), rank lost: org.datampi.runtime."
                + "RankLostException: Lost rank 3 on h2: nothing heard for 10 s'; exit 1").rankLost());
    }

    /** The job's own error would come again: a throwing task, a rank out of heap (it exits by itself). */
    @Test
    void aTasksErrorOrARankOutOfHeapIsNot() throws Exception {
        assertFalse(failedJob("echo 'datampi: job failed on rank 1 (h1), O task 0: java.lang.RuntimeException: "
                + "bad row'; exit 1").rankLost());
        assertFalse(failedJob("echo 'Terminating due to java.lang.OutOfMemoryError: Java heap space'; exit 3")
                .rankLost());
    }

    /** A stop of this side's own (Ctrl-C, a deadline) ends the group by a signal too, and is no lost rank. */
    @Test
    void aJobStoppedHereIsNot() throws Exception {
        try (RankPool pool = RankPool.start(List.of("bash", "-c", "read job; sleep 60"), 60)) {
            MpidrunJob job = pool.trySubmit("job_1", List.of("--job-id", "job_1")).orElseThrow();
            job.kill();
            assertEquals(MpidrunJob.State.KILLED, job.exit().get(30, TimeUnit.SECONDS));
            assertFalse(job.rankLost());
        }
    }

    /** The job of a group (a shell that stands in for mpidrun) that reads it, runs SCRIPT and ends. */
    private static MpidrunJob failedJob(String script) throws Exception {
        try (RankPool pool = RankPool.start(List.of("bash", "-c", "read job; " + script), 60)) {
            MpidrunJob job = pool.trySubmit("job_1", List.of("--job-id", "job_1")).orElseThrow();
            assertEquals(MpidrunJob.State.FAILED, job.exit().get(30, TimeUnit.SECONDS), "the job failed");
            return job;
        }
    }
}
