package org.datampi.hive.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class StatementInterruptsTest {
    /** SIGTERM inside a Slurm job is Slurm ending it; any other ending signal is named as itself. */
    @Test
    void theEndNamesSlurmsJobOnlyForItsSigterm() {
        assertEquals("datampi: Slurm is ending job 12 (SIGTERM: scancel, or the job's time limit); the running "
                + "statement is cancelled and the shell ends", StatementInterrupts.endMessage("TERM", "12"));
        assertEquals("datampi: SIGHUP received; the running statement is cancelled and the shell ends",
                StatementInterrupts.endMessage("HUP", "12"));
        assertEquals("datampi: SIGTERM received; the running statement is cancelled and the shell ends",
                StatementInterrupts.endMessage("TERM", null));
    }
}
