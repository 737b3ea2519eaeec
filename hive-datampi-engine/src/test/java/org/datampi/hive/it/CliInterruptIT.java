package org.datampi.hive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
    private static final Duration STAGE_START = Duration.ofSeconds(120);
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
        Cli setup = Cli.start(root, "setup", "SET hive.execution.engine=mr;"
                + "CREATE TABLE src (a INT); INSERT INTO src VALUES " + rows + ";"
                + "CREATE TABLE target (a INT, s STRING); INSERT INTO target VALUES (0, 'before');");
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
        Cli cli = Cli.start(root, name, settings + SLOW_INSERT + "SELECT 'not reached';");
        List<ProcessHandle> stage = cli.awaitStageRanks();
        cli.signal("INT");
        assertAllGone(stage, cli);
        assertEquals(1, cli.awaitExit(), "the interrupted statement failed:\n" + cli.output());
        String output = cli.output();
        assertTrue(output.contains("Interrupting... Be patient") && output.contains("was killed (Ctrl-C"), output);
        assertFalse(output.contains("not reached"), "-f stops at the failed statement");

        Cli check = Cli.start(root, name + "-check", "SELECT * FROM target;");
        assertEquals(0, check.awaitExit(), check.output());
        assertTrue(check.output().lines().anyMatch(line -> line.equals("0\tbefore")),
                "the target keeps its rows:\n" + check.output());
    }

    @Test
    void killingTheShellsJvmLeavesNoRankBehind() throws Exception {
        Cli cli = Cli.start(root, "killed", SLOW_INSERT);
        List<ProcessHandle> stage = cli.awaitStageRanks();
        cli.signal("KILL");
        assertAllGone(stage, cli);
    }

    private static void assertAllGone(List<ProcessHandle> processes, Cli cli) throws InterruptedException {
        long deadline = System.nanoTime() + RANKS_GONE.toNanos();
        while (processes.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        List<String> alive = processes.stream().filter(ProcessHandle::isAlive)
                .map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList();
        assertTrue(alive.isEmpty(), "still running " + RANKS_GONE.toSeconds() + " s after the signal: " + alive
                + "\n" + cli.output());
    }

    /** bin/hive-datampi -e STATEMENTS on the test's state directory, its stdout and stderr in one file. */
    private record Cli(Process process, Path outputFile) {
        static Cli start(Path root, String name, String statements) throws IOException {
            Path output = root.resolve(name + ".out");
            ProcessBuilder builder = new ProcessBuilder(HiveSession.HOME.resolve("bin/hive-datampi").toString(),
                    "--warehouse", root.resolve("state").toString(), "-e", statements)
                    .redirectErrorStream(true).redirectOutput(output.toFile());
            builder.environment().put("HIVE_DATAMPI_HEAP", "1g");
            return new Cli(builder.start(), output);
        }

        /** The ranks, mpirun and mpidrun of the first datampi stage, once it runs. */
        List<ProcessHandle> awaitStageRanks() throws Exception {
            long deadline = System.nanoTime() + STAGE_START.toNanos();
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    fail("bin/hive-datampi ended before its stage ran:\n" + output());
                }
                // Hive's progress line of a MapReduce-shaped stage, or datampi's of a DAG's first vertex.
                if (output().contains("Stage-1 map = ") || output().contains("Stage-1 Map 1: ")) {
                    List<ProcessHandle> descendants = new ArrayList<>(process.descendants().toList());
                    if (descendants.stream().anyMatch(p -> p.info().commandLine().orElse("")
                            .contains("org.datampi.runtime.CommonProcess"))) {
                        return descendants;
                    }
                }
                Thread.sleep(200);
            }
            process.destroyForcibly();
            fail("No datampi stage ran within " + STAGE_START.toSeconds() + " s:\n" + output());
            return List.of();
        }

        void signal(String signal) throws Exception {
            Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).inheritIO().start();
            assertEquals(0, kill.waitFor(), "kill -" + signal);
        }

        int awaitExit() throws InterruptedException {
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                fail("bin/hive-datampi did not end within 5 minutes:\n" + output());
            }
            return process.exitValue();
        }

        String output() {
            try {
                return Files.readString(outputFile, StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(cannot read " + outputFile + ": " + e + ")";
            }
        }
    }
}
