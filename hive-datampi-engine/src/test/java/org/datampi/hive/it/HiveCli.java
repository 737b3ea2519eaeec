package org.datampi.hive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.regex.Pattern;

/**
 * bin/hive-datampi as a user runs it, in a process of its own: {@code -e STATEMENTS} on a test's state directory
 * (ROOT/state), the ranks' local files under ROOT/local, its stdout and stderr in one file (ROOT/NAME.out).
 */
record HiveCli(Process process, Path outputFile) {
    private static final Duration STAGE_START = Duration.ofSeconds(120);

    /** Output piped to a file, as in a script or CI. */
    static HiveCli start(Path root, String name, String statements) throws IOException {
        return start(root, name, command(root, statements));
    }

    /**
     * On a pseudo-terminal, as in a user's terminal: util-linux's script(1) runs the command on a terminal of its own
     * and copies what it draws (escape sequences included) to the output file.
     */
    static HiveCli startOnTerminal(Path root, String name, String statements) throws IOException {
        String shellCommand = command(root, statements).stream().map(HiveCli::shellQuoted)
                .reduce((a, b) -> a + " " + b).orElseThrow();
        return start(root, name, List.of("script", "--quiet", "--return", "--flush", "--command", shellCommand,
                "/dev/null"));
    }

    /** bin/hive-datampi with ARGUMENTS (after --warehouse, the test's state directory). */
    static HiveCli startWith(Path root, String name, String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of(HiveSession.HOME.resolve("bin/hive-datampi").toString(),
                "--warehouse", root.resolve("state").toString()));
        command.addAll(List.of(arguments));
        return start(root, name, command);
    }

    private static List<String> command(Path root, String statements) {
        return List.of(HiveSession.HOME.resolve("bin/hive-datampi").toString(), "--warehouse",
                root.resolve("state").toString(), "-e", statements);
    }

    private static HiveCli start(Path root, String name, List<String> command) throws IOException {
        Path output = root.resolve(name + ".out");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().put("HIVE_DATAMPI_HEAP", "1g");
        // The ranks' spills and job files, where a test can tell that none is left.
        Files.createDirectories(localDir(root));
        builder.environment().put("DATAMPI_LOCAL_DIR", localDir(root).toString());
        return new HiveCli(builder.start(), output);
    }

    /** The ranks' local directory (mpid.local.dir) of the test's sessions. */
    static Path localDir(Path root) {
        return root.resolve("local");
    }

    private static String shellQuoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /** The ranks, mpirun and mpidrun of the first datampi stage, once it runs. */
    List<ProcessHandle> awaitStageRanks() throws Exception {
        // Hive's progress line of a MapReduce-shaped stage, or datampi's of a DAG's first vertex.
        return awaitStageRanks(Pattern.compile("Stage-1 map = |Stage-1 Map 1: "));
    }

    /** The ranks, mpirun and mpidrun of the running datampi stage, once PROGRESS finds a line of the output. */
    List<ProcessHandle> awaitStageRanks(Pattern progress) throws Exception {
        long deadline = System.nanoTime() + STAGE_START.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                fail("bin/hive-datampi ended before its stage ran:\n" + output());
            }
            if (progress.matcher(output()).find()) {
                List<ProcessHandle> descendants = new ArrayList<>(process.descendants().toList());
                if (descendants.stream().anyMatch(p -> p.info().commandLine().orElse("")
                        .contains("org.datampi.runtime.CommonProcess"))) {
                    return descendants;
                }
            }
            Thread.sleep(200);
        }
        process.destroyForcibly();
        fail("No datampi stage reached '" + progress + "' within " + STAGE_START.toSeconds() + " s:\n" + output());
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

    /** The rows the session printed with LABEL as their first column ({@code SELECT 'label', ...}), without it. */
    static List<String> labelledRows(String output, String label) {
        return output.lines().filter(line -> line.startsWith(label + "\t"))
                .map(line -> line.substring(label.length() + 1)).toList();
    }

    /**
     * The statements that print what a transactional table's writers left in the metastore, each output between
     * labelled rows that {@link #locks} and {@link #transactions} find.
     */
    static final String SHOW_LOCKS_AND_TRANSACTIONS = "SELECT 'locks:begin'; SHOW LOCKS; SELECT 'locks:end'; "
            + "SELECT 'transactions:begin'; SHOW TRANSACTIONS; SELECT 'transactions:end';";

    /** The locks SHOW_LOCKS_AND_TRANSACTIONS found in OUTPUT (its rows that begin with a lock id). */
    static List<String> locks(String output) {
        return between(output, "locks").stream().filter(line -> line.matches("\\d+\\s.*")).toList();
    }

    /** The states of the transactions SHOW_LOCKS_AND_TRANSACTIONS found in OUTPUT, in the order of their ids. */
    static List<String> transactions(String output) {
        return between(output, "transactions").stream().filter(line -> line.matches("\\d+\\s.*"))
                .map(line -> line.split("\\s+")[1]).toList();
    }

    private static List<String> between(String output, String label) {
        List<String> lines = output.lines().toList();
        int begin = lines.indexOf(label + ":begin");
        int end = lines.indexOf(label + ":end");
        assertTrue(begin >= 0 && end > begin, "SHOW output labelled " + label + " in:\n" + output);
        return lines.subList(begin + 1, end);
    }

    String output() {
        try {
            return Files.readString(outputFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + outputFile + ": " + e + ")";
        }
    }
}
