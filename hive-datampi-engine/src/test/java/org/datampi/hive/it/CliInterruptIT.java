package org.datampi.hive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * bin/hive-datampi as a user runs it, stopped in the middle of a long datampi stage: Ctrl-C (SIGINT) cancels the
 * statement as Hive's CLI does and stops its ranks at once, with nothing of it written, in both plan shapes; kill -9
 * of the shell's JVM leaves no rank behind either (mpidrun watches the JVM that started it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CliInterruptIT {
    /** How soon after the signal every rank, mpirun and mpidrun must be gone. */
    private static final Duration RANKS_GONE = Duration.ofSeconds(5);
        /**
     * Each of the 40 rows sleeps half a second in the stage's one O task: a 20 s stage. (The sleep's argument depends
     * on the row, or Hive would fold the call into one sleep at compile time.)
     */
    private static final String SLOW_INSERT = "INSERT OVERWRITE TABLE target "
            + "SELECT a, reflect('java.lang.Thread', 'sleep', cast(500 + a - a as bigint)) FROM src;";
    private final Path root = HiveSession.HOME.resolve("hive-datampi-engine/target/it-interrupt");

    @BeforeAll
    void createTables() throws Exception {
        FileUtil.fullyDelete(root.toFile());
        Files.createDirectories(root);
        StringBuilder rows = new StringBuilder();
        for (int a = 1; a <= 40; a++) {
            rows.append(a == 1 ? "" : ", ").append('(').append(a).append(')');
        }
        HiveCli setup = HiveCli.start(root, "setup", "SET hive.execution.engine=mr;"
                + "CREATE TABLE src (a INT); INSERT INTO src VALUES " + rows + ";"
                + "CREATE TABLE target (a INT, s STRING); INSERT INTO target VALUES (0, 'before');"
                + TransactionalStatements.SESSION_SCRIPT + "CREATE TABLE acid_target (a INT, s STRING) STORED AS ORC "
                + "TBLPROPERTIES ('transactional'='true'); INSERT INTO acid_target VALUES (0, 'before');");
        assertEquals(0, setup.awaitExit(), setup.output());
    }

    @Test
    void ctrlCCancelsTheStatementAndStopsItsRanksAtOnce() throws Exception {
        assertCtrlCCancels("interrupted", "");
    }

    @Test
    void ctrlCCancelsAMapReduceShapedStageAndStopsItsRanksAtOnce() throws Exception {
        assertCtrlCCancels("interrupted-mapreduce", "SET hive.datampi.plan=mapreduce;");
    }

    private void assertCtrlCCancels(String name, String settings) throws Exception {
        HiveCli cli = HiveCli.start(root, name, settings + SLOW_INSERT + "SELECT 'not reached';");
        List<ProcessHandle> stage = cli.awaitStageRanks();
        cli.signal("INT");
        assertAllGone(stage, cli);
        assertEquals(1, cli.awaitExit(), "the interrupted statement failed:\n" + cli.output());
        String output = cli.output();
        assertTrue(output.contains("Interrupting... Be patient") && output.contains("was killed (Ctrl-C"), output);
        assertFalse(output.contains("not reached"), "-f stops at the failed statement");

        HiveCli check = HiveCli.start(root, name + "-check", "SELECT * FROM target;");
        assertEquals(0, check.awaitExit(), check.output());
        assertTrue(check.output().lines().anyMatch(line -> line.equals("0\tbefore")),
                "the target keeps its rows:\n" + check.output());
    }

    /**
     * Ctrl-C during an INSERT into a transactional table: the statement's transaction is aborted before the shell
     * exits, so no lock outlives it (an embedded metastore's housekeeping would take metastore.txn.timeout, 300 s, to
     * release one), and the table reads as before.
     */
    @Test
    void ctrlCAbortsAnInsertIntoATransactionalTable() throws Exception {
        HiveCli cli = HiveCli.start(root, "interrupted-acid", TransactionalStatements.SESSION_SCRIPT
                + SLOW_INSERT.replace("INSERT OVERWRITE TABLE target", "INSERT INTO acid_target")
                + "SELECT 'not reached';");
        List<ProcessHandle> stage = cli.awaitStageRanks();
        cli.signal("INT");
        assertAllGone(stage, cli);
        assertEquals(1, cli.awaitExit(), "the interrupted statement failed:\n" + cli.output());

        HiveCli check = HiveCli.start(root, "interrupted-acid-check", TransactionalStatements.SESSION_SCRIPT
                + "SELECT 'rows', a, s FROM acid_target; " + HiveCli.SHOW_LOCKS_AND_TRANSACTIONS);
        assertEquals(0, check.awaitExit(), check.output());
        String output = check.output();
        assertEquals(List.of("0\tbefore"), HiveCli.labelledRows(output, "rows"), "the table reads as before:\n"
                + output);
        assertEquals(List.of(), HiveCli.locks(output), "no lock left:\n" + output);
        List<String> transactions = HiveCli.transactions(output);
        assertTrue(transactions.contains("ABORTED") && !transactions.contains("OPEN"),
                "the INSERT's transaction aborted, none open: " + transactions + "\n" + output);
    }

    /**
     * Before the kill, while they run: the shell's JVM and its ranks started from the class-data archives bin/setup
     * made (target/cds; bin/functions.sh's class_data_options), each mapping its own. A JVM whose classpath or jars no
     * longer match its archive starts without it, silently: only this shows that they still match.
     */
    @Test
    void killingTheShellsJvmLeavesNoRankBehind() throws Exception {
        HiveCli cli = HiveCli.start(root, "killed", SLOW_INSERT);
        List<ProcessHandle> stage = cli.awaitStageRanks();
        try {
            assertMaps(cli.process().toHandle(), "target/cds/hive-cli.jsa");
            for (ProcessHandle rank : awaitRankJvms(cli)) {
                assertMaps(rank, "target/cds/rank.jsa");
            }
        } finally {
            cli.signal("KILL");
        }
        assertAllGone(stage, cli);
    }

    /**
     * The stage's rank JVMs, within 10 s: mpidrun starts each through env, so a rank process found at the stage's
     * first progress line may still be env, about to become the JVM.
     */
    private static List<ProcessHandle> awaitRankJvms(HiveCli cli) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            List<ProcessHandle> ranks = cli.process().descendants().filter(p -> p.info().command().orElse("")
                    .endsWith("/java") && p.info().commandLine().orElse("")
                    .contains("org.datampi.runtime.CommonProcess")).toList();
            if (!ranks.isEmpty() || System.nanoTime() > deadline) {
                assertFalse(ranks.isEmpty(), "the stage's rank JVMs, among " + cli.process().descendants().map(
                        p -> p.pid() + " " + p.info().command().orElse("?")).toList());
                return ranks;
            }
            Thread.sleep(100);
        }
    }

    /**
     * PROCESS has ARCHIVE (under the checkout) mapped into its memory, within 10 s (a rank found at its stage's first
     * progress line may be a JVM that has not yet mapped its archives).
     */
    private static void assertMaps(ProcessHandle process, String archive) throws Exception {
        assertTrue(Files.isRegularFile(HiveSession.HOME.resolve(archive)), archive + " exists (bin/setup makes it)");
        Path file = HiveSession.HOME.resolve(archive).toRealPath(); // as the kernel names a mapped file
        Path maps = Path.of("/proc", Long.toString(process.pid()), "maps");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Files.readAllLines(maps).stream().noneMatch(line -> line.endsWith(" " + file))) {
            assertTrue(System.nanoTime() < deadline, process.pid() + " (" + process.info().commandLine().orElse("?")
                    + ") maps " + file + ":\n" + String.join("\n", Files.readAllLines(maps)));
            Thread.sleep(100);
        }
    }

    private static void assertAllGone(List<ProcessHandle> processes, HiveCli cli) throws InterruptedException {
        long deadline = System.nanoTime() + RANKS_GONE.toNanos();
        while (processes.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        List<String> alive = processes.stream().filter(ProcessHandle::isAlive)
                .map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList();
        assertTrue(alive.isEmpty(), "still running " + RANKS_GONE.toSeconds() + " s after the signal: " + alive
                + "\n" + cli.output());
    }
}
