package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

class RankFailureLinesTest {
    @Test
    void theFailedLineNamesItsRank() {
        String line = RankFailureLines.failed(12, "node07", "O task 3", "java.io.IOException: boom");
        assertEquals("datampi: job failed on rank 12 (node07), O task 3: java.io.IOException: boom", line);
        assertEquals(OptionalInt.of(12), RankFailureLines.failedRank(line));
        assertEquals(OptionalInt.empty(), RankFailureLines.failedRank("datampi: O tasks 1/2 done"));
    }

    /** A lost peer is told from a task's error by where it happened, whatever the cause's text says. */
    @Test
    void aLostPeerIsToldFromATasksError() {
        assertTrue(RankFailureLines.isRankLost(RankFailureLines.failed(0, "node01", RankFailureLines.RANK_LOST,
                "org.datampi.runtime.RankLostException: Lost rank 3 on node02: nothing heard for 10 s")));
        assertFalse(RankFailureLines.isRankLost(RankFailureLines.failed(2, "node02", "O task 3",
                "java.lang.RuntimeException: rank lost: a UDF's own words")));
        assertFalse(RankFailureLines.isRankLost("mpidrun: job job_1 failed (exit 137)"));
    }

    /** Several ranks failing at once interleave their tails: each line is taken only for its own rank. */
    @Test
    void aLogLineIsTakenOnlyForItsRank() {
        String header = RankFailureLines.logHeader(1, "node02", "/var/log/datampi/job_1/rank-1.log");
        String line = RankFailureLines.logLine(1, "2026-11-22 INFO started");
        assertEquals(Optional.of("node02:/var/log/datampi/job_1/rank-1.log, last lines:"),
                RankFailureLines.logTextOf(1, header));
        assertEquals(Optional.of("| 2026-11-22 INFO started"), RankFailureLines.logTextOf(1, line));
        assertEquals(Optional.empty(), RankFailureLines.logTextOf(11, line), "not rank 11's");
        assertEquals(Optional.empty(), RankFailureLines.logTextOf(2, header));
    }
}
