package org.datampi.bench.it;

import static java.util.Objects.requireNonNull;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.datampi.bench.it.SimulatedCluster.Result;

/**
 * A compute host lost in the middle of an INSERT OVERWRITE on ClusterSimIT's three simulated hosts (Open MPI): its
 * ranks killed (in a Slurm allocation: {@code salloc -N 3 --ntasks-per-node=2 bin/hive-datampi}, no hostfile), or its
 * network taken down. Without retries (hive.datampi.stage.retries=0: a retry on the same hosts would wait for the one
 * that is down), the stage must end within 30 s of the fault with an error that names the lost host, the target table
 * must keep its rows, no rank may be left on any host once the host is back, and the next query, with that host left
 * out of the hostfile, must succeed. In the allocation, mpidrun's sweep of the lost ranks' directories reaches every
 * node of it (through Slurm, as the ranks were started). A retry after lost ranks (the default) is RankLossIT's, on one
 * machine: a fresh group is launched the same way on one host or on three. ClusterSimIT runs these last, on its own
 * cluster (a cluster's start-up is a minute), over the tables of {@link #TABLES}.
 */
final class LostHost {
    static final String FAULTS_TABLE = "lost_host_source";
    /** The source (many thousand rows, so that the slow insert's sleeps span the fault) and the target. */
    static final String TABLES = "CREATE TABLE " + FAULTS_TABLE + " STORED AS ORC AS SELECT pos AS id, "
            + "concat('page', pos % 97) AS page FROM (SELECT posexplode(split(space(299999), ' '))) t; "
            + "CREATE TABLE target STORED AS ORC AS SELECT 'before' AS page, 0L AS n;";
    private static final long FAULT_TO_FAILURE_SECONDS = 30;
    /**
     * Into table %s: every thousandth row of the source sleeps, so that the stage is still running when the fault
     * comes. (GenericUDFReflect returns "null" for a void method; %% is the format's percent sign.)
     */
    private static final String SLOW_INSERT = "INSERT OVERWRITE TABLE %s SELECT v.page, count(*) FROM " + FAULTS_TABLE
            + " v WHERE reflect('java.lang.Thread', 'sleep', cast(if(v.id %% 1000 = 0, 100, 0) AS BIGINT)) = 'null' "
            + "GROUP BY v.page;";
    /** Many small splits, so that every host runs O tasks. */
    private static final String SMALL_SPLITS = "SET hive.input.format=org.apache.hadoop.hive.ql.io.HiveInputFormat; "
            + "SET mapreduce.input.fileinputformat.split.maxsize=200000; SET tez.grouping.min-size=1; "
            + "SET tez.grouping.max-size=200000; ";

    private final SimulatedCluster cluster;

    LostHost(SimulatedCluster cluster) {
        this.cluster = requireNonNull(cluster, "cluster");
    }

    /** Loses dmp3 by FAULT ("ranks killed" or "network down") during the slow insert, and checks what follows. */
    void loseDuringAnInsert(String fault) throws Exception {
        String name = "slow-insert-" + fault.replace(' ', '-');
        Path log = cluster.logs().resolve(name + ".log");
        String statements = "SET hive.datampi.stage.retries=0; " + SLOW_INSERT.formatted("target");
        boolean inSlurm = fault.equals("ranks killed");
        // In the allocation, Hive stays 20 s after the failed statement (a local fetch that sleeps): the allocation,
        // which mpidrun's sweep of the nodes runs in, must outlive it.
        Process insert = inSlurm
                ? cluster.sallocInBackground(name, List.of("-N", "3", "--ntasks-per-node=2", "--time=10"),
                        List.of(("SET hive.execution.engine=datampi; SET hive.cli.errors.ignore=true; " + SMALL_SPLITS
                                + statements + "SELECT reflect('java.lang.Thread', 'sleep', 20000L)")
                                .split(";\\s*")))
                : startSlowInsert(log, statements);
        try {
            injectAndCheck(fault, log, insert);
        } finally {
            if (inSlurm) {
                // A failed check must not leave the job holding the nodes (and its ranks) until its time limit.
                cluster.exec("scancel-" + name, "dmp1", "scancel", "--name=hive-datampi");
            }
            stop(insert);
        }
    }

    private static Process startSlowInsert(Path log, String statements) throws Exception {
        return new ProcessBuilder(SimulatedCluster.HOME.resolve("bin/cluster-sim").toString(), "hive", "-e",
                "SET hive.execution.engine=datampi; " + SMALL_SPLITS + statements)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** A failed check must not leave the query's Hive (and its hold on the metastore) to the next test. */
    private static void stop(Process insert) {
        insert.descendants().forEach(ProcessHandle::destroyForcibly);
        insert.destroyForcibly();
    }

    /**
     * In the middle of the stage: Hive prints its 0% line when it first polls the job, which may be before the ranks
     * are up (a launch across hosts takes seconds): the fault waits for dmp3's ranks.
     */
    private void awaitRanksOfTheStage(Path log) throws Exception {
        awaitLine(log, "Stage-1 Map 1: ", 180);
        assertTrue(ranksWithin("dmp3", 60), "dmp3 runs ranks of the stage:\n" + Files.readString(log));
        assertTrue(rankDirectoriesWithin("dmp3", 30), "the running ranks' directories are where this test looks");
        TimeUnit.SECONDS.sleep(2);
    }

    private Result killRanksOn(String host) throws Exception {
        return cluster.run("kill-" + host, "bash", "-c", "kill -9 " + ranksOn(host).replace('\n', ' '));
    }

    private void injectAndCheck(String fault, Path log, Process insert) throws Exception {
        awaitRanksOfTheStage(log);
        long faultAt = System.nanoTime();
        if (fault.equals("network down")) {
            Result down = cluster.exec("link-down-dmp3", "dmp3", "ip", "link", "set", "eth0", "down");
            try {
                assertEquals(0, down.exit(), down.output());
                checkTheStageEnded(log, insert, faultAt);
            } finally {
                // Up again whatever the checks found: the cluster's other users (its down) need dmp3.
                Result up = cluster.exec("link-up-dmp3", "dmp3", "ip", "link", "set", "eth0", "up");
                assertEquals(0, up.exit(), up.output());
            }
        } else {
            Result killed = killRanksOn("dmp3");
            assertEquals(0, killed.exit(), killed.output());
            checkTheStageEnded(log, insert, faultAt);
        }
        checkNothingLeftAndTheNextQueryRuns(fault, log);
    }

    /** The statement failed within FAULT_TO_FAILURE_SECONDS of the fault, naming dmp3, and Hive ended. */
    private void checkTheStageEnded(Path log, Process insert, long faultAt) throws Exception {
        // When the statement failed: its FAILED line (Hive may go on, as in the allocation, where it sleeps after).
        long deadline = faultAt + TimeUnit.SECONDS.toNanos(FAULT_TO_FAILURE_SECONDS + 60);
        Optional<String> failed = Optional.empty();
        while (failed.isEmpty() && System.nanoTime() < deadline) {
            failed = Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(line -> line.startsWith("FAILED:"))
                    .findFirst();
            TimeUnit.MILLISECONDS.sleep(200);
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - faultAt);
        boolean ended = insert.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            insert.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(failed.isPresent() && ended, "the statement failed and Hive ended:\n" + output);
        assertNotEquals(0, insert.exitValue(), "the query failed:\n" + output);
        assertTrue(seconds <= FAULT_TO_FAILURE_SECONDS, "the stage ended " + seconds + " s after the fault:\n"
                + output);
        assertTrue(failed.get().contains("dmp3"), "the error names the lost host:\n" + failed.get());
    }

    /**
     * With dmp3 back: no rank, MPI daemon or rank directory on any host; the target table keeps its rows and the next
     * query runs without dmp3.
     */
    private void checkNothingLeftAndTheNextQueryRuns(String fault, Path log) throws Exception {
        String output = Files.readString(log, StandardCharsets.UTF_8);
        for (String host : List.of("dmp1", "dmp2", "dmp3")) {
            assertTrue(noRanksWithin(host, 30), "no rank and no MPI daemon is left on " + host + ": "
                    + processesOn(host, "org.datampi.runtime.CommonProcess|orted"));
        }
        // The killed ranks' spills and job files included: mpidrun sweeps every host after a failed job.
        for (String host : List.of("dmp1", "dmp2", "dmp3")) {
            assertTrue(noRankDirectoriesWithin(host, 30), "no rank's local directory is left on " + host + ": "
                    + rankDirectoriesOn(host) + "\n" + sweepsSeenFrom(host));
        }
        if (fault.equals("ranks killed")) {
            assertSweptEveryNode(output);
        }
        // One session: the target read back, then the next query on the hosts left.
        Path twoHosts = cluster.logs().resolve("hostfile-without-dmp3");
        Files.writeString(twoHosts, "dmp1 slots=2\ndmp2 slots=2\n");
        Result next = cluster.hive("next-" + fault.replace(' ', '-'), "SELECT * FROM target; "
                + "SET hive.datampi.hostfile=" + twoHosts + "; SELECT count(DISTINCT page) FROM " + FAULTS_TABLE + ";");
        assertEquals(List.of("before\t0"), SimulatedCluster.rows(next.output()),
                "the target table keeps its rows:\n" + next.output());
        assertEquals(0, next.exit(), "the next query runs on the other hosts:\n" + next.output());
        assertTrue(next.output().lines().anyMatch(line -> line.equals("97")), next.output());
    }

    /**
     * The failed job's sweep (its log directory's sweep.log, on dmp1 where mpidrun ran) reached every node of the
     * allocation, and on dmp3 removed the killed ranks' directories: a rank that does not end itself cleans nothing.
     */
    private void assertSweptEveryNode(String console) throws Exception {
        Matcher logs = Pattern.compile("datampi: rank logs in (\\S+) ").matcher(console);
        assertTrue(logs.find(), "the console names the ranks' log directory:\n" + console);
        String sweep = "";
        for (int i = 0; i < 30 && !sweep.contains("swept"); i++) {
            TimeUnit.SECONDS.sleep(1);
            sweep = cluster.exec("sweep-log", "dmp1", "bash", "-c", "cat " + logs.group(1) + "/sweep.log; true")
                    .output();
        }
        for (String host : List.of("dmp1", "dmp2", "dmp3")) {
            assertTrue(sweep.contains("datampi: " + host + ": removed "), "the sweep reached " + host + ":\n" + sweep);
        }
        assertTrue(sweep.matches("(?s).*datampi: dmp3: removed [1-9]\\d* directories.*"),
                "the sweep removed the killed ranks' directories on dmp3:\n" + sweep);
    }

    private static void awaitLine(Path log, String text, int seconds) throws Exception {
        for (int i = 0; i < seconds; i++) {
            if (Files.readString(log, StandardCharsets.UTF_8).contains(text)) {
                return;
            }
            TimeUnit.SECONDS.sleep(1);
        }
        throw new AssertionError("'" + text + "' did not come within " + seconds + " s:\n"
                + Files.readString(log, StandardCharsets.UTF_8));
    }

    private boolean ranksWithin(String host, int seconds) throws Exception {
        return within(seconds, () -> !ranksOn(host).isBlank());
    }

    private boolean noRanksWithin(String host, int seconds) throws Exception {
        return within(seconds, () -> processesOn(host, "org.datampi.runtime.CommonProcess|orted").isBlank());
    }

    private boolean noRankDirectoriesWithin(String host, int seconds) throws Exception {
        return within(seconds, () -> rankDirectoriesOn(host).isBlank());
    }

    private boolean rankDirectoriesWithin(String host, int seconds) throws Exception {
        return within(seconds, () -> !rankDirectoriesOn(host).isBlank());
    }

    /** A condition on the cluster, asked once a second. */
    private interface Condition {
        boolean holds() throws Exception;
    }

    /** Whether the condition holds within that many seconds. */
    private static boolean within(int seconds, Condition condition) throws Exception {
        for (int i = 0; i < seconds; i++) {
            if (condition.holds()) {
                return true;
            }
            TimeUnit.SECONDS.sleep(1);
        }
        return false;
    }

    /** The ranks' local directories on a host: mpid.local.dir is the host's private /tmp (the user's directory). */
    private String rankDirectoriesOn(String host) throws Exception {
        return cluster.exec("rank-dirs-" + host, host, "bash", "-c",
                "ls -d /tmp/datampi-*/datampi-*/rank-* 2>/dev/null; true").output().strip();
    }

    /**
     * The rank processes (and Open MPI's daemon) of one host, by its network namespace: the simulated hosts share
     * this machine's process table, so a pgrep on a host would see every host's ranks.
     */
    private String processesOn(String host, String pattern) throws Exception {
        return cluster.run("processes-" + host, "bash", "-c", "for p in $(ip netns pids " + host + "); do "
                + "grep -qaE '" + pattern + "' /proc/$p/cmdline 2>/dev/null && echo $p; done; true").output().strip();
    }

    /** What was left in the ranks' directories on a host, and what mpidrun's sweeps (on dmp1, Hive's host) said. */
    private String sweepsSeenFrom(String host) throws Exception {
        return cluster.exec("left-" + host, host, "bash", "-c", "ls -la /tmp/datampi-*/datampi-*/rank-* 2>&1; true")
                .output() + cluster.exec("sweeps", "dmp1", "bash", "-c", "tail -n 20 logs/*/sweep.log 2>&1; true")
                .output();
    }

    private String ranksOn(String host) throws Exception {
        return processesOn(host, "org.datampi.runtime.CommonProcess");
    }
}
