package org.datampi.hive.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class LauncherOutputTest {
    /** Open MPI 4.1's output when the host dmp3 lost its network before its daemon could connect back. */
    private static final List<String> LOST_HOST = List.of(
            "mpidrun: job job_1: 6 processes (openmpi) serving jobs from standard input; logs in /x/logs/job_1",
            "SLF4J: Class path contains multiple SLF4J bindings.",
            "--------------------------------------------------------------------------",
            "WARNING: An invalid value was given for oob_tcp_if_include.  This",
            "value will be ignored.",
            "",
            "  Local host: dmp3",
            "  Value:      10.213.0.0/24",
            "  Message:    Did not find interface matching this subnet",
            "--------------------------------------------------------------------------",
            "------------------------------------------------------------",
            "A process or daemon was unable to complete a TCP connection",
            "to another process:",
            "  Local host:    dmp3",
            "  Remote host:   dmp1",
            "This is usually caused by a firewall on the remote host. Please",
            "check that any firewall (e.g., iptables) has been disabled and",
            "try again.",
            "------------------------------------------------------------",
            "--------------------------------------------------------------------------",
            "ORTE was unable to reliably start one or more daemons.",
            "This usually is caused by:",
            "",
            "* not finding the required libraries and/or binaries on",
            "  one or more nodes. Please check your PATH and LD_LIBRARY_PATH",
            "--------------------------------------------------------------------------",
            "mpidrun: job job_1 failed (exit 1); rank logs in /x/logs/job_1");

    @Test
    void openMpisFirstMessagesNameTheHostThatFailed() {
        assertEquals("WARNING: An invalid value was given for oob_tcp_if_include. This value will be ignored. "
                + "Local host: dmp3 Value: 10.213.0.0/24 Message: Did not find interface matching this subnet | "
                + "A process or daemon was unable to complete a TCP connection to another process: Local host: dmp3 "
                + "Remote host: dmp1 This is usually caused by a firewall on the remote host. Please check that any "
                + "firewall (e.g., iptables) has been disabled and try again.", LauncherOutput.cause(LOST_HOST));
    }

    @Test
    void outputWithoutMessagesGivesItsLastLines() {
        List<String> hydra = List.of("SLF4J: Actual binding is of type", "[mpiexec@dmp1] HYDU_sock_connect: "
                + "unable to connect from \"dmp1\" to \"dmp3\" (No route to host)", "",
                "[mpiexec@dmp1] main: unable to launch proxies");
        assertEquals("[mpiexec@dmp1] HYDU_sock_connect: unable to connect from \"dmp1\" to \"dmp3\" (No route to host)"
                + " | [mpiexec@dmp1] main: unable to launch proxies", LauncherOutput.cause(hydra));
    }

    @Test
    void aRankThatEndedOnItsOwnComesBeforeOpenMpisMessages() {
        List<String> outOfMemory = List.of("datampi: Stage-1 map = 0%", "Terminating due to "
                + "java.lang.OutOfMemoryError: Java heap space", "-".repeat(74),
                "Primary job  terminated normally, but 1 process returned", "a non-zero exit code.", "-".repeat(74),
                "-".repeat(74), "mpirun detected that one or more processes exited with non-zero status, thus causing",
                "the job to be terminated. The first process to do so was:", "", "  Process name: [[1234,1],1]",
                "  Exit code:    3", "-".repeat(74), "mpidrun: job job_1 failed (exit 3); rank logs in /x/logs/job_1");
        assertEquals("Terminating due to java.lang.OutOfMemoryError: Java heap space | Primary job terminated normally, "
                + "but 1 process returned a non-zero exit code. | mpirun detected that one or more processes exited "
                + "with non-zero status, thus causing the job to be terminated. The first process to do so was: "
                + "Process name: [[1234,1],1] Exit code: 3", LauncherOutput.cause(outOfMemory));
    }

    /** The rank could not reach the job runner (a firewall): its console's headline is the cause. */
    @Test
    void aRanksFailureHeadlineIsTheCause() {
        String headline = "datampi: job failed on rank 2 (dmp2), O task 0: java.io.IOException: boom";
        assertEquals(headline, LauncherOutput.cause(List.of("datampi: O tasks 0/4 done, A tasks 0/2 done (0%)",
                headline, "datampi: rank 2 log dmp2:/x/rank-2.log, last lines:", "java.io.IOException: boom",
                "\tat org.datampi.Task.run(Task.java:1)", "-".repeat(74), "Primary job  terminated normally, but 1 "
                        + "process returned", "-".repeat(74), "mpidrun: job job_1 failed (exit 1); rank logs in /x")));
    }

    @Test
    void onlyReportLinesAreTheCauseWhenNothingElseWasSaid() {
        String failed = "mpidrun: job job_1 failed (exit 1); rank logs in /x";
        assertEquals(failed, LauncherOutput.cause(List.of("SLF4J: Class path contains multiple SLF4J bindings.",
                failed)));
    }

    @Test
    void aMessageLeftOpenIsNotTheCause() {
        assertEquals("the launcher stopped", LauncherOutput.cause(List.of("the launcher stopped", "-".repeat(30),
                "half a message")));
    }
}
