package org.datampi.hive.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The rank pool's side of its group's idle limit, with a process that stands in for mpidrun (cat reads its jobs). */
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
}
