package org.datampi.hive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A rank killed (kill -9) in the middle of an INSERT OVERWRITE run by bin/hive-datampi, in the O phase or the A phase,
 * in either plan shape. With hive.datampi.stage.retries=1 (the default) the stage runs again on a fresh group and the
 * query succeeds with Hive on MR's answer, the retry shown on the console; with 0 it fails within seconds naming the
 * killed rank, the target keeps its rows, no process of the group and no file of its ranks is left, and the session's
 * next query succeeds. A rank lost between two stages of a query costs at most a retry; one lost between queries,
 * while the warm group idles, costs the next query nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RankLossIT {
    /**
     * Into table %s: each of the 40 rows sleeps 150 ms in the map side of its one O task, a 6 s O phase: time to see
     * it start on the console (polled once a second) and kill a rank, short enough to run three times.
     * (GenericUDFReflect returns "null" for a void method.)
     */
    private static final String SLOW_MAP_INSERT = "INSERT OVERWRITE TABLE %s SELECT page, count(*) FROM visits "
            + "WHERE reflect('java.lang.Thread', 'sleep', cast(150 + id - id AS BIGINT)) = 'null' GROUP BY page;";
    /**
     * Into table %s: each of the 8 groups sleeps 750 ms behind the shuffle, a 6 s A phase after a quick O phase when
     * one A task runs them all (ONE_A_TASK: by default there is one per rank, which shares the sleeps out).
     */
    private static final String SLOW_REDUCE_INSERT = "INSERT OVERWRITE TABLE %s SELECT page, n FROM (SELECT page, "
            + "count(*) AS n FROM visits GROUP BY page) t "
            + "WHERE reflect('java.lang.Thread', 'sleep', cast(750 + n - n AS BIGINT)) = 'null';";
    /** The query's answer, labelled, as the test reads it back from the target (Hive on MR's is {@link #mrRows}). */
    private static final String ANSWERS = "SELECT 'datampi', page, n FROM target ORDER BY page;";
    private static final String ONE_A_TASK = "SET mapreduce.job.reduces=1;";
    private static final Pattern O_PHASE = Pattern.compile("Stage-1 Map 1: 0\\(\\+1\\)/1|Stage-1 map = ");
    private static final Pattern A_PHASE = Pattern.compile("Stage-1 Map 1: (\\d+)/\\1, Reducer 2: 0/");
    /** A task of a DAG-shaped stage running (a write to a transactional table is not always Stage-1). */
    private static final Pattern ANY_TASK_RUNNING = Pattern.compile("Stage-\\d+ .*\\(\\+[1-9]\\)/");
    /** From the kill to the FAILED line, without retries. */
    private static final long FAILURE_SECONDS = 10;

    private final Path root = HiveSession.HOME.resolve("hive-datampi-engine/target/it-rank-loss");
    /**
     * Hive on MR's answers, from the session that made the tables (which no test changes): the GROUP BY the inserts
     * write, in page order, and the number of pages. Once for the class: each is a local MR job of seconds.
     */
    private List<String> mrRows;
    private List<String> mrPages;

    @BeforeAll
    void createTables() throws Exception {
        FileUtil.fullyDelete(root.toFile());
        Files.createDirectories(root);
        HiveCli setup = HiveCli.start(root, "setup", "SET hive.execution.engine=mr;"
                + "CREATE TABLE visits STORED AS ORC AS SELECT pos AS id, concat('page', pos % 8) AS page "
                + "FROM (SELECT posexplode(split(space(39), ' '))) t;"
                + "CREATE TABLE target (page STRING, n BIGINT); INSERT INTO target VALUES ('before', 0);"
                + "CREATE TABLE kept (page STRING, n BIGINT); INSERT INTO kept VALUES ('before', 0);"
                + "SELECT 'mr', page, count(*) FROM visits GROUP BY page ORDER BY page;"
                + "SELECT 'mr-pages', count(DISTINCT page) FROM visits;"
                + TransactionalStatements.SESSION_SCRIPT
                + "CREATE TABLE acid_visits (id INT, page STRING) STORED AS ORC "
                + "TBLPROPERTIES ('transactional'='true'); INSERT INTO acid_visits SELECT id, page FROM visits;");
        assertEquals(0, setup.awaitExit(), setup.output());
        mrRows = HiveCli.labelledRows(setup.output(), "mr");
        mrPages = HiveCli.labelledRows(setup.output(), "mr-pages");
        assertFalse(mrRows.isEmpty() || mrPages.isEmpty(), setup.output());
    }

    @Test
    void aRankLostInTheOPhaseCostsARetryNotTheQuery() throws Exception {
        assertRetried("o-phase", "", SLOW_MAP_INSERT, O_PHASE);
    }

    @Test
    void aRankLostInTheAPhaseCostsARetryNotTheQuery() throws Exception {
        assertRetried("a-phase", ONE_A_TASK, SLOW_REDUCE_INSERT, A_PHASE);
    }

    @Test
    void aMapReduceShapedStageIsRetriedToo() throws Exception {
        assertRetried("mapreduce", "SET hive.datampi.plan=mapreduce;", SLOW_MAP_INSERT, O_PHASE);
    }

    @Test
    void withoutRetriesTheQueryFailsNamingTheRankAndTheSessionGoesOn() throws Exception {
        // A table of its own: the other tests write the target.
        HiveCli cli = HiveCli.start(root, "no-retry", "SET hive.cli.errors.ignore=true; "
                + "SET hive.datampi.stage.retries=0; SET hive.execution.engine=datampi; "
                + SLOW_MAP_INSERT.formatted("kept") + "SELECT 'target', page, n FROM kept; "
                + "SELECT 'next', count(DISTINCT page) FROM visits;");
        List<ProcessHandle> group = cli.awaitStageRanks(O_PHASE);
        int rank = killOneRank(group);
        long killed = System.nanoTime();
        while (!cli.output().contains("FAILED:") && cli.process().isAlive()
                && System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(60)) {
            Thread.sleep(100);
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - killed);
        assertTrue(seconds <= FAILURE_SECONDS, "the stage failed " + seconds + " s after the kill:\n" + cli.output());
        assertAllGone(group, cli);
        cli.awaitExit();
        String output = cli.output();
        String failed = output.lines().filter(line -> line.startsWith("FAILED:")).findFirst().orElseThrow();
        assertTrue(failed.matches(".*\\brank " + rank + "\\b.*signal 9.*"), "names the killed rank " + rank
                + " and its signal: " + failed);
        assertFalse(output.contains("runs again"), "no retry:\n" + output);
        assertEquals(List.of("before\t0"), HiveCli.labelledRows(output, "target"),
                "the target keeps its rows:\n" + output);
        assertEquals(mrPages, HiveCli.labelledRows(output, "next"), "the next query:\n" + output);
        assertTrue(output.contains("datampi: Stage-1 "), "it ran on datampi:\n" + output);
        assertNoLocalFileLeft();
    }

    /**
     * A rank lost between two queries while the warm group idles (its host rebooted, the OOM killer): the group ends
     * within seconds, and the next query runs on a fresh one (or, had it reached the dying group first, on its retry)
     * with Hive on MR's answer; nothing fails.
     */
    @Test
    void aRankLostBetweenQueriesCostsTheNextQueryNothing() throws Exception {
        HiveCli cli = HiveCli.start(root, "between", "SET hive.execution.engine=datampi; "
                + "SELECT 'first', count(DISTINCT page) FROM visits; "
                // A pause in Hive's own JVM, with the group idle: the rank is killed meanwhile.
                + "SET hive.execution.engine=mr; SELECT 'pause', reflect('java.lang.Thread', 'sleep', 4000L); "
                + "SET hive.execution.engine=datampi; SELECT 'next', page, count(*) FROM visits GROUP BY page;");
        List<ProcessHandle> group = cli.awaitStageRanks(Pattern.compile("(?m)^first\t"));
        killOneRank(group);
        assertAllGone(group, cli);
        assertEquals(0, cli.awaitExit(), cli.output());
        String output = cli.output();
        assertFalse(output.contains("FAILED:"), "nothing failed:\n" + output);
        List<String> next = HiveCli.labelledRows(output, "next").stream().sorted().toList();
        assertFalse(next.isEmpty(), output);
        assertEquals(mrRows.stream().sorted().toList(), next, "the next query:\n" + output);
        long stages = output.lines().filter(line -> line.matches("datampi: Stage-1 job_\\S+: .* ranks.*")).count();
        assertTrue(stages >= 2, "both queries ran on datampi:\n" + output);
    }

    /**
     * A rank lost as a query goes from one stage to the next (a MapReduce-shaped GROUP BY, then its ORDER BY): the
     * kill lands at the first stage's end, in the gap, or at the second stage's start, whichever the race gives. Each
     * costs at most a retry: the query succeeds with Hive on MR's answer and leaves nothing behind.
     */
    @Test
    void aRankLostBetweenStagesCostsAtMostARetry() throws Exception {
        HiveCli cli = HiveCli.start(root, "between-stages", "SET hive.execution.engine=datampi; "
                + "SET hive.datampi.plan=mapreduce; INSERT OVERWRITE TABLE target SELECT page, count(*) FROM visits "
                + "GROUP BY page ORDER BY page; " + ANSWERS);
        List<ProcessHandle> group = cli.awaitStageRanks(Pattern.compile("Stage-1 map = 100%,\\s+reduce = 100%"));
        killOneRank(group);
        assertEquals(0, cli.awaitExit(), cli.output());
        String output = cli.output();
        assertFalse(output.contains("FAILED:"), "nothing failed:\n" + output);
        assertTrue(output.contains("datampi: Stage-2 "), "both stages ran on datampi:\n" + output);
        assertAllGone(group, cli);
        List<String> answer = HiveCli.labelledRows(output, "datampi");
        assertFalse(answer.isEmpty() || answer.contains("before\t0"), "the target was written:\n" + output);
        assertEquals(mrRows, answer, "the same rows as Hive on MR, none twice:\n" + output);
        assertNoLocalFileLeft();
    }

    /**
     * An UPDATE of a transactional table (its rows sleeping in the scan) whose rank is killed: the stage runs again,
     * what the lost attempt wrote into the table's delta directories goes, and every row is updated once.
     */
    @Test
    void aRankLostDuringAnUpdateCostsARetryNotItsRows() throws Exception {
        HiveCli cli = HiveCli.start(root, "acid-update", TransactionalStatements.SESSION_SCRIPT
                + "SET hive.execution.engine=datampi; UPDATE acid_visits SET page = concat(page, '_u') WHERE "
                + "reflect('java.lang.Thread', 'sleep', cast(150 + id - id AS BIGINT)) = 'null' AND page NOT LIKE "
                + "'%_u'; SELECT 'datampi', regexp_replace(page, '_u$', ''), count(*) FROM acid_visits WHERE page "
                + "LIKE '%_u' GROUP BY regexp_replace(page, '_u$', '') ORDER BY 2; SELECT 'rows', count(*) FROM "
                + "acid_visits; " + HiveCli.SHOW_LOCKS_AND_TRANSACTIONS);
        List<ProcessHandle> group = cli.awaitStageRanks(ANY_TASK_RUNNING);
        killOneRank(group);
        assertEquals(0, cli.awaitExit(), cli.output());
        String output = cli.output();
        assertTrue(output.contains("runs again on a fresh group of ranks"), "the stage ran again:\n" + output);
        assertAllGone(group, cli);
        assertEquals(mrRows, HiveCli.labelledRows(output, "datampi"), "every row updated once:\n" + output);
        assertEquals(List.of("40"), HiveCli.labelledRows(output, "rows"), output);
        assertEquals(List.of(), HiveCli.locks(output), "no lock left:\n" + output);
        assertNoLocalFileLeft();
    }

    /**
     * A MERGE into a transactional table whose rank is killed, without retries: the statement fails naming the rank,
     * its transaction is aborted, no lock is left, the table reads as before and the next statement writes it.
     */
    @Test
    void aRankLostDuringAMergeWithoutRetriesAbortsItsTransaction() throws Exception {
        HiveCli cli = HiveCli.start(root, "acid-merge", TransactionalStatements.SESSION_SCRIPT
                + "SET hive.cli.errors.ignore=true; SET hive.datampi.stage.retries=0; "
                // The rows before, on mr: no DAG-shaped stage before the MERGE's.
                + "SET hive.execution.engine=mr; "
                + "SELECT 'before', page, count(*) FROM acid_visits GROUP BY page ORDER BY page; "
                + "SET hive.execution.engine=datampi; "
                + "MERGE INTO acid_visits t USING (SELECT id, page FROM visits WHERE reflect('java.lang.Thread', "
                + "'sleep', cast(150 + id - id AS BIGINT)) = 'null') s ON t.id = s.id "
                + "WHEN MATCHED THEN UPDATE SET page = 'merged'; "
                + "SELECT 'after', page, count(*) FROM acid_visits GROUP BY page ORDER BY page; "
                + HiveCli.SHOW_LOCKS_AND_TRANSACTIONS
                + "UPDATE acid_visits SET page = page WHERE id < 0; SELECT 'next', count(*) FROM acid_visits;");
        List<ProcessHandle> group = cli.awaitStageRanks(ANY_TASK_RUNNING);
        int rank = killOneRank(group);
        cli.awaitExit();
        String output = cli.output();
        String failed = output.lines().filter(line -> line.startsWith("FAILED:")).findFirst().orElseThrow(() ->
                new AssertionError("the MERGE failed:\n" + output));
        assertTrue(failed.matches(".*\\brank " + rank + "\\b.*"), "names the killed rank " + rank + ": " + failed);
        assertAllGone(group, cli);
        List<String> before = HiveCli.labelledRows(output, "before");
        assertFalse(before.isEmpty(), output);
        assertEquals(before, HiveCli.labelledRows(output, "after"), "the table reads as before:\n" + output);
        assertEquals(List.of(), HiveCli.locks(output), "no lock left:\n" + output);
        List<String> transactions = HiveCli.transactions(output);
        assertTrue(transactions.contains("ABORTED") && !transactions.contains("OPEN"),
                "the MERGE's transaction aborted, none open: " + transactions + "\n" + output);
        assertEquals(List.of("40"), HiveCli.labelledRows(output, "next"), output);
        assertNoLocalFileLeft();
    }

    /** SETTINGS, then STATEMENT with a rank killed once PHASE shows: it runs again and gives MR's answer. */
    private void assertRetried(String name, String settings, String statement, Pattern phase) throws Exception {
        HiveCli cli = HiveCli.start(root, name, "SET hive.execution.engine=datampi; " + settings
                + statement.formatted("target") + ANSWERS);
        List<ProcessHandle> group = cli.awaitStageRanks(phase);
        int rank = killOneRank(group);
        assertEquals(0, cli.awaitExit(), cli.output());
        String output = cli.output();
        Matcher lost = Pattern.compile("datampi: Stage-1 \\S+ \\(attempt 1 of 2\\) lost a rank: .*\\brank " + rank
                + "\\b.*signal 9.*").matcher(output);
        assertTrue(lost.find(), "the console says which rank was lost, and that it was attempt 1 of 2:\n" + output);
        assertTrue(output.contains("datampi: Stage-1 runs again on a fresh group of ranks (attempt 2 of 2, "
                + "hive.datampi.stage.retries=1)"), output);
        assertAllGone(group, cli);
        List<String> answer = HiveCli.labelledRows(output, "datampi");
        assertFalse(answer.isEmpty() || answer.contains("before\t0"), "the target was written:\n" + output);
        assertEquals(mrRows, answer, "the same rows as Hive on MR, none twice:\n" + output);
        assertNoLocalFileLeft();
    }

    /** Kills the rank JVM of the group with the highest pid; returns its MPI rank. */
    private static int killOneRank(List<ProcessHandle> group) throws Exception {
        ProcessHandle rank = group.stream()
                .filter(p -> p.info().command().orElse("").endsWith("/java")
                        && p.info().commandLine().orElse("").contains("org.datampi.runtime.CommonProcess"))
                .max(Comparator.comparingLong(ProcessHandle::pid))
                .orElseThrow(() -> new AssertionError("no rank among " + group));
        int number = mpiRank(rank.pid());
        Process kill = new ProcessBuilder("kill", "-9", String.valueOf(rank.pid())).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -9 " + rank.pid());
        return number;
    }

    /** A rank's number in MPI_COMM_WORLD, from the environment its launcher gave it (Open MPI's, or MPICH's PMI). */
    private static int mpiRank(long pid) throws IOException {
        String environment = new String(Files.readAllBytes(Path.of("/proc", String.valueOf(pid), "environ")),
                StandardCharsets.UTF_8);
        for (String variable : environment.split("\0")) {
            if (variable.startsWith("OMPI_COMM_WORLD_RANK=") || variable.startsWith("PMI_RANK=")) {
                return Integer.parseInt(variable.substring(variable.indexOf('=') + 1));
            }
        }
        throw new AssertionError("process " + pid + " has no MPI rank in its environment");
    }

    private static void assertAllGone(List<ProcessHandle> group, HiveCli cli) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(FAILURE_SECONDS);
        while (group.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        List<String> alive = group.stream().filter(ProcessHandle::isAlive)
                .map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList();
        if (!alive.isEmpty()) {
            fail("the lost attempt's group is still running: " + alive + "\n" + cli.output());
        }
    }

    /** Once the session has ended: nothing of any rank under the local directory but the user's own directory. */
    private void assertNoLocalFileLeft() throws IOException {
        Path localDir = HiveCli.localDir(root);
        Path user = localDir.resolve("datampi-" + System.getProperty("user.name"));
        try (Stream<Path> all = Files.walk(localDir)) {
            List<Path> left = all.filter(path -> !path.equals(localDir) && !path.equals(user)).toList();
            assertTrue(left.isEmpty(), "no spill file or rank directory stays on disk: " + left);
        }
    }
}
