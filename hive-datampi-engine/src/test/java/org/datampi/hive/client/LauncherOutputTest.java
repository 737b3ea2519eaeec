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

    /**
     * Ranks killed on dmp3 mid-stage (Open MPI 4.1 across hosts): the peers' complaints name dmp1 and dmp2, mpirun's
     * own line names the rank and host that died, which leads the cause.
     */
    @Test
    void aRankKilledByASignalLeadsTheCauseWithItsHost() {
        List<String> killed = List.of("[dmp2][[8443,1],2][btl_tcp_frag.c:135:mca_btl_tcp_frag_send] "
                + "mca_btl_tcp_frag_send: writev failed: Broken pipe (32)", "-".repeat(74),
                "Primary job  terminated normally, but 1 process returned", "a non-zero exit code. Per user-direction, "
                + "the job has been aborted.", "-".repeat(74), "-".repeat(74),
                "mpirun.openmpi noticed that process rank 4 with PID 13397 on node dmp3 exited on signal 9 (Killed).",
                "-".repeat(74), "mpidrun: job job_1 failed (exit 137); rank logs in /x/logs/job_1");
        assertEquals("rank 4 on dmp3 ended by signal 9 (Killed) | [dmp2][[8443,1],2][btl_tcp_frag.c:135:"
                + "mca_btl_tcp_frag_send] mca_btl_tcp_frag_send: writev failed: Broken pipe (32) | Primary job "
                + "terminated normally, but 1 process returned a non-zero exit code. Per user-direction, the job has "
                + "been aborted. | mpirun.openmpi noticed that process rank 4 with PID 13397 on node dmp3 exited on "
                + "signal 9 (Killed).", LauncherOutput.cause(killed));
    }

    @Test
    void aLostDaemonLeadsTheCauseWithItsHost() {
        List<String> lost = List.of("-".repeat(74), "ORTE has lost communication with a remote daemon.", "",
                "  HNP daemon   : [[8443,0],0] on node dmp1", "  Remote daemon: [[8443,0],2] on node dmp3", "",
                "This is usually due to either a failure of the TCP network", "connection to the node, or possibly an "
                + "internal failure of", "the daemon itself. We cannot recover from this failure, and", "therefore "
                + "will terminate the job.", "-".repeat(74));
        assertEquals("lost Open MPI's daemon on dmp3 (the host, its network or the daemon is down)",
                LauncherOutput.cause(lost).split(" \\| ")[0]);
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
