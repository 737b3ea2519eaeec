package org.datampi.hive.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import org.apache.hadoop.conf.Configuration;
import org.datampi.hive.client.DataMPIJobRunner.JobOutcome;
import org.datampi.hive.conf.DataMPISettings;
import org.junit.jupiter.api.Test;

class StageAttemptsTest {
    private static final StageTimeline TIMELINE = new StageTimeline(0, 0, 0, 0, 0);

    @Test
    void aStageThatLostARankRunsAgainUpToItsRetriesAndTheConsoleSaysWhy() {
        Console console = new Console();
        StageAttempts attempts = new StageAttempts(console, new Configuration(false), "Stage-1");
        assertEquals(1, attempts.current());
        assertEquals("", attempts.describeCurrent());

        assertTrue(attempts.retryAfter("job_1", failed(true, "rank 1 on host dmp2 died: SIGKILL\nits last lines"),
                false), "the default allows one retry");
        assertEquals(2, attempts.current());
        assertEquals(", attempt 2 of 2", attempts.describeCurrent());
        assertEquals(List.of("datampi: Stage-1 job_1 (attempt 1 of 2) lost a rank: rank 1 on host dmp2 died: SIGKILL",
                "datampi: Stage-1 runs again on a fresh group of ranks (attempt 2 of 2, "
                        + DataMPISettings.STAGE_RETRIES + "=1)"), console.lines);

        assertFalse(attempts.retryAfter("job_2", failed(true, "rank 0 died"), false), "no retry is left");
        assertEquals(2, attempts.current());
        assertEquals(2, console.lines.size(), "nothing more said");
    }

    @Test
    void aStageIsNotRunAgainForItsOwnErrorWhenStoppedOrWithoutRetries() {
        Console console = new Console();
        StageAttempts own = new StageAttempts(console, new Configuration(false), "Stage-1");
        assertFalse(own.retryAfter("job_1", failed(false, "a UDF threw"), false), "the same error would come again");
        assertFalse(own.retryAfter("job_1", failed(true, "rank 1 died"), true), "the user asked for the end");

        Configuration none = new Configuration(false);
        none.set(DataMPISettings.STAGE_RETRIES, "0");
        StageAttempts noRetries = new StageAttempts(console, none, "Stage-2");
        assertFalse(noRetries.retryAfter("job_2", failed(true, "rank 1 died"), false));
        assertEquals(1, noRetries.current());
        assertTrue(console.lines.isEmpty(), "nothing said: " + console.lines);
    }

    @Test
    void aLostRankWithoutAReportedCauseSaysSo() {
        Console console = new Console();
        StageAttempts attempts = new StageAttempts(console, new Configuration(false), "Stage-3");
        assertTrue(attempts.retryAfter("job_3", new JobOutcome(Optional.empty(), Optional.empty(), Optional.empty(),
                true, TIMELINE, List.of()), false));
        assertEquals("datampi: Stage-3 job_3 (attempt 1 of 2) lost a rank: no cause reported", console.lines.get(0));
    }

    private static JobOutcome failed(boolean rankLost, String failure) {
        return new JobOutcome(Optional.of("/tmp/logs"), Optional.of("dmp1"), Optional.of(failure), rankLost, TIMELINE,
                List.of());
    }

    /** Hive's console, keeping what the stage says. */
    private static final class Console implements Consumer<String> {
        private final List<String> lines = new ArrayList<>();

        @Override
        public void accept(String line) {
            lines.add(line);
        }
    }
}
