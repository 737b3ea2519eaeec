package org.datampi.hive.dag;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ReducerTasksTest {
    @Test
    void anEstimateFarAboveTheRanksIsCutToAFewTasksPerRank() {
        assertEquals(ReducerTasks.ESTIMATED_TASKS_PER_RANK * 2, ReducerTasks.estimatedBound(1009, 5, 2));
    }

    @Test
    void aSourceWithMoreTasksThanThatKeepsItsCount() {
        assertEquals(40, ReducerTasks.estimatedBound(1009, 40, 2));
    }

    @Test
    void anEstimateBelowTheBoundIsKept() {
        assertEquals(3, ReducerTasks.estimatedBound(3, 1, 2));
        assertEquals(30, ReducerTasks.estimatedBound(30, 40, 2));
    }
}
