package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
