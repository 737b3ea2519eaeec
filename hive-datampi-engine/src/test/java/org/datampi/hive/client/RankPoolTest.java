package org.datampi.hive.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The rank pool's side of its group's idle limit, with a process that stands in for mpidrun (cat reads its jobs). */
class RankPoolTest {
    @Test
    void aPoolIsRetiredBeforeItsRanksWouldEndByThemselves() throws Exception {
        // Ranks that end after 2 idle seconds: the pool takes no job from 1.8 s on.
        try (RankPool pool = RankPool.start(List.of("cat"), 2)) {
            assertTrue(pool.isIdle(), "a new pool takes jobs");
            Thread.sleep(2_100);
            assertFalse(pool.isIdle(), "close to its idle limit the pool takes no job");
            assertTrue(pool.hasEnded(), "and is to be replaced");
            assertTrue(pool.trySubmit("job_1", List.of("--job-id", "job_1")).isEmpty());
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
