package org.datampi.hive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What bin/hive-datampi's console shows of a DAG stage, as a user sees it: on a terminal, Hive's in-place progress
 * table (as Hive on Tez's) drawn over itself; piped, plain progress lines; either way the stage's execution summary,
 * whose record counts are checked against Hive on MR's answers over the same table.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CliConsoleIT {
    private static final String GROUP_BY = "SELECT k, count(*) FROM src GROUP BY k;";
    /** An ANSI "cursor up" sequence: the table moves back over itself. */
    private static final Pattern CURSOR_UP = Pattern.compile("\u001b\\[\\d+A");
    private final Path root = HiveSession.HOME.resolve("hive-datampi-engine/target/it-console");
    private long rows;
    private long groups;

    @BeforeAll
    void createTable() throws Exception {
        FileUtil.fullyDelete(root.toFile());
        Files.createDirectories(root);
        HiveCli setup = HiveCli.start(root, "setup", "SET hive.execution.engine=mr;"
                + "CREATE TABLE src STORED AS ORC AS SELECT pos AS id, pmod(pos * 7, 13) AS k "
                + "FROM (SELECT posexplode(split(space(4999), ' ')) AS (pos, unused)) generated;"
                + "SELECT 'rows', count(*) FROM src; SELECT 'groups', count(DISTINCT k) FROM src;");
        assertEquals(0, setup.awaitExit(), setup.output());
        rows = answer(setup.output(), "rows");
        groups = answer(setup.output(), "groups");
    }

    @Test
    void onATerminalTheProgressIsATableDrawnInPlace() throws Exception {
        HiveCli cli = HiveCli.startOnTerminal(root, "terminal", GROUP_BY + "SELECT 'first-done';"
                + "SET hive.datampi.exec.inplace.progress=false; SET hive.datampi.exec.print.summary=false;"
                + "SELECT 'query-two', count(*) FROM src;");
        assertEquals(0, cli.awaitExit(), cli.output());
        String output = cli.output().replace("\r", "");
        String first = output.substring(0, output.indexOf("first-done"));

        assertTrue(CURSOR_UP.matcher(first).find(), "the table is redrawn in place:\n" + first);
        Matcher header = Pattern.compile("VERTICES +MODE +STATUS +TOTAL +COMPLETED +RUNNING +PENDING +FAILED +KILLED")
                .matcher(first);
        int lastHeader = -1;
        while (header.find()) {
            lastHeader = header.start();
        }
        assertTrue(lastHeader >= 0, first);
        String lastTable = first.substring(lastHeader, first.indexOf("Task Execution Summary"));
        assertTrue(Pattern.compile("Map 1 \\.+ +O tasks +SUCCEEDED +1 +1 +0 +0 +0 +0").matcher(lastTable).find(),
                lastTable);
        assertTrue(Pattern.compile("Reducer 2 \\.+ +A tasks +SUCCEEDED +(\\d+) +\\1 +0 +0 +0 +0")
                .matcher(lastTable).find(), lastTable);
        assertTrue(lastTable.contains("VERTICES: 02/02") && lastTable.contains("100%"), lastTable);
        assertFalse(first.contains("Stage-1 Map 1: "), "no plain progress lines under the table:\n" + first);
        assertSummary(first);
        assertEquals(groups, first.lines().filter(line -> line.matches("\\d+\t\\d+")).count(), first);

        // Turned off, plain lines even on a terminal; and no summary.
        String second = output.substring(output.indexOf("first-done"));
        assertTrue(second.contains("Stage-1 Map 1: "), second);
        assertFalse(CURSOR_UP.matcher(second).find(), second);
        assertFalse(second.contains("Task Execution Summary"), second);
        assertEquals(rows, answer(output, "query-two"));
    }

    @Test
    void pipedTheProgressIsPlainLines() throws Exception {
        HiveCli cli = HiveCli.start(root, "piped", GROUP_BY);
        assertEquals(0, cli.awaitExit(), cli.output());
        String output = cli.output();

        assertTrue(Pattern.compile("\\d{4}-\\d\\d-\\d\\d [\\d:,]+ Stage-1 Map 1: 1/1, Reducer 2: (\\d+)/\\1")
                .matcher(output).find(), output);
        assertFalse(output.contains("\u001b["), "no escape sequences in a file:\n" + output);
        assertSummary(output);

        // What the ranks printed reaches the shell's log, and no warning of two SLF4J bindings is among it: the ranks'
        // classpath carries each jar once.
        Path shellLog = root.resolve("state/logs/hive-datampi.log");
        String ranksPrinted = Files.readString(shellLog);
        assertTrue(ranksPrinted.contains("RankPool: mpidrun: datampi: ranks 0-1 on "), "the ranks' lines in " + shellLog);
        assertFalse(ranksPrinted.contains("multiple SLF4J bindings"), "a rank warned of two SLF4J bindings: "
                + shellLog);
    }

    /** A script that cannot be read is refused before Hive starts, naming it, with Hive's CLI's exit code (3). */
    @Test
    void aScriptThatCannotBeReadIsRefusedNamingIt() throws Exception {
        Path missing = root.resolve("no-such-script.sql");
        HiveCli cli = HiveCli.startWith(root, "missing-script", "-f", missing.toString());
        assertEquals(3, cli.awaitExit(), cli.output());
        assertTrue(cli.output().contains("hive-datampi: cannot read the script " + missing + " (-f): no such file"),
                cli.output());
        assertFalse(cli.output().contains("Exception") || cli.output().contains("Hive Session ID"),
                "no stack trace, no session started:\n" + cli.output());
    }

    /**
     * The summary's records: Map 1 read every row of the table (as MR counted them) and sent Reducer 2 what it read,
     * which wrote one row per group (as MR counted them).
     */
    private void assertSummary(String output) {
        assertTrue(output.contains("Task Execution Summary"), output);
        List<String> map = summaryRow(output, "Map 1");
        List<String> reducer = summaryRow(output, "Reducer 2");
        // VERTICES(2 words) TASKS DURATION CPU INPUT_RECORDS OUTPUT_RECORDS ...
        assertEquals(rows, number(map.get(5)), map.toString());
        assertTrue(number(map.get(6)) > 0, map.toString());
        assertEquals(number(map.get(6)), number(reducer.get(5)), reducer.toString());
        assertEquals(groups, number(reducer.get(6)), reducer.toString());
        assertTrue(output.contains("2 ranks; received data spilled to local disk: "), output);
    }

    private static List<String> summaryRow(String output, String vertex) {
        // Not the progress table's rows: theirs go on with dots and a mode.
        Pattern row = Pattern.compile(Pattern.quote(vertex) + " +\\d+ +[\\d,]+ .*");
        return output.lines().filter(line -> row.matcher(line).matches())
                .map(line -> Arrays.asList(line.trim().split("\\s+"))).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no summary row of " + vertex + ":\n" + output));
    }

    private static long number(String value) {
        return Long.parseLong(value.replace(",", ""));
    }

    private static long answer(String output, String label) {
        Matcher matcher = Pattern.compile("(?m)^" + label + "\t(\\d+)$").matcher(output.replace("\r", ""));
        assertTrue(matcher.find(), "no '" + label + "' row in:\n" + output);
        return Long.parseLong(matcher.group(1));
    }
}
