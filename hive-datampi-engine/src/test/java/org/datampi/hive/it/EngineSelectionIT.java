package org.datampi.hive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.hadoop.hive.ql.MapRedStats;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Choosing the engine per session, the hive.datampi.* knobs, and what reaches the ORC reader. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EngineSelectionIT {
    private static final Pattern TASK_COUNTS = Pattern.compile("number of mappers: (\\d+); number of reducers: (\\d+)");
    private final Path root = HiveSession.HOME.resolve("hive-datampi-engine/target/it-engine");
    private HiveSession hive;

    @BeforeAll
    void createTables() throws Exception {
        FileUtil.fullyDelete(root.toFile());
        Path sales = TestData.writeSales(root.resolve("data"), 4, 2000);
        Path wide = TestData.writeSales(root.resolve("wide"), 2, 150_000);
        hive = new HiveSession(root.resolve("state"), Map.of(
                "hive.input.format", "org.apache.hadoop.hive.ql.io.HiveInputFormat",
                "hive.fetch.task.conversion", "none",
                "hive.datampi.heap", "768m"));
        hive.setEngine("mr");
        hive.createSalesText("sales_text", sales);
        hive.query("CREATE TABLE sales_orc STORED AS ORC AS SELECT * FROM sales_text");
        hive.createSalesText("wide_text", wide);
        hive.query("CREATE TABLE wide_orc STORED AS ORC AS SELECT * FROM wide_text");
    }

    @AfterAll
    void close() throws Exception {
        hive.close();
    }

    /** A test that ran in the mapreduce shape leaves the session in the default one. */
    @AfterEach
    void backToTheDagShape() {
        hive.query("SET hive.datampi.plan=dag");
    }

    /** The session on datampi in the mapreduce shape (O and A tasks), for what only that shape has. */
    private void mapreduceShape() {
        hive.setEngine("datampi");
        hive.query("SET hive.datampi.plan=mapreduce");
    }

    @Test
    void aSessionSwitchesBetweenDatampiAndMr() {
        String query = "SELECT category, count(*) FROM sales_orc GROUP BY category";
        hive.setEngine("datampi");
        List<String> datampi = sortedRows(query, "job_datampi");
        hive.setEngine("mr");
        List<String> mr = sortedRows(query, "job_local");
        hive.setEngine("datampi");
        assertEquals(datampi, sortedRows(query, "job_datampi"));
        assertEquals(mr, datampi);
        int before = hive.consoleText().length();
        hive.query("SET hive.execution.engine");
        assertTrue(hive.consoleText().substring(before).contains("hive.execution.engine=datampi"));
    }

    /** Regression: Hive's JVM-wide ExecMapper "done" flag, left set by an in-process job, emptied the next merge. */
    @Test
    void aDatampiStageAfterAnInProcessMrJobKeepsItsRows() {
        hive.setEngine("mr");
        hive.query("CREATE TABLE one_row (a INT)");
        hive.query("INSERT INTO one_row VALUES (1)");
        hive.setEngine("datampi");
        hive.query("CREATE TABLE copied STORED AS ORC AS SELECT * FROM sales_text");
        assertEquals(List.of("8000"), hive.query("SELECT count(*) FROM copied"));
    }

    @Test
    void aggregatesOverAnEmptyTableStillRunTheASide() {
        hive.setEngine("datampi");
        hive.query("CREATE TABLE empty_table (a INT)");
        assertEquals(List.of("0\tNULL"), hive.query("SELECT count(*), sum(a) FROM empty_table"));
    }

    @Test
    void explainShowsDatampiStagesWithTheirTaskCounts() {
        String query = "EXPLAIN SELECT category, count(*) FROM sales_orc GROUP BY category";
        mapreduceShape();
        String datampi = String.join("\n", hive.query(query));
        assertTrue(datampi.contains("DataMPI") && datampi.contains("O tasks: one per input split")
                && datampi.contains("A tasks: Hive's reducer estimate at run time"), datampi);
        hive.setEngine("mr");
        String mr = String.join("\n", hive.query(query));
        assertTrue(mr.contains("Map Reduce") && !mr.contains("DataMPI"), mr);
    }

    /**
     * hive.datampi.plan=dag compiles each query with Hive's Tez compiler while the session stays on datampi, and runs
     * the DAG on the ranks with Tez's task runtime and Hive's Tez processors: a map vertex, a map vertex feeding a
     * reduce vertex over datampi's shuffle (a GROUP BY), and a reduce vertex feeding another (a GROUP BY then an ORDER
     * BY), a UNION ALL (a vertex group) written directly and one feeding a GROUP BY, with the rows of Hive on MR, also
     * when written with INSERT OVERWRITE. EXPLAIN names a DAG stage "DataMPI DAG", with Hive's vertices and edges.
     */
    @Test
    void theDagShapeRunsOnTheRanksWhileTheSessionStaysOnDatampi() {
        String select = "SELECT id, upper(name), amount * 2 FROM sales_orc WHERE category = 'books' AND id % 3 = 1";
        String groupBy = "SELECT category, count(*), sum(amount), min(id) FROM sales_orc GROUP BY category";
        hive.setEngine("mr");
        hive.query("CREATE TABLE dag_target (id INT, name STRING, doubled DECIMAL(14,2)) STORED AS ORC");
        hive.query("INSERT INTO dag_target VALUES (0, 'before', 1)");
        List<String> selected = sortedRows(select, "job_local");
        List<String> grouped = sortedRows(groupBy, "job_local");
        String textGroupBy = "SELECT category, count(*), max(name) FROM sales_text GROUP BY category";
        List<String> textGrouped = sortedRows(textGroupBy, "job_local");
        String union = "SELECT id, name FROM sales_orc WHERE id < 3 UNION ALL SELECT id, name FROM sales_text "
                + "WHERE id > 95";
        String unionGrouped = "SELECT category, count(*), max(id) FROM (SELECT category, id FROM sales_orc WHERE id < "
                + "50 UNION ALL SELECT category, id * 2 FROM sales_text) u GROUP BY category";
        List<String> unioned = sortedRows(union, "job_local");
        List<String> unionedGrouped = sortedRows(unionGrouped, "job_local");
        assertFalse(selected.isEmpty() || grouped.isEmpty(), "MR selects rows");
        hive.setEngine("datampi");
        hive.query("SET hive.datampi.plan=dag");
        try {
            assertEquals(selected, sortedRows(select, ": Map 1 (1 tasks); on 2 ranks"),
                    "a map vertex on the ranks, as MR");
            assertEquals(grouped, sortedRows(groupBy, ": Map 1 (1 tasks), Reducer 2 (2 tasks); on 2 ranks"),
                    "a map and a reduce vertex over the shuffle, as MR; Hive's estimate of 1 reducer raised to 2");
            hive.query("SET mapreduce.job.reduces=1");
            assertEquals(grouped, sortedRows(groupBy, ", Reducer 2 (1 tasks); on 2 ranks"),
                    "a reducer count the user fixed is kept");
            hive.query("SET mapreduce.job.reduces=-1");
            // One task per text file (Tez's split grouping off): each rank runs several tasks of a vertex.
            hive.query("SET tez.grouping.min-size=1");
            hive.query("SET tez.grouping.max-size=1");
            assertEquals(textGrouped, sortedRows(textGroupBy, ": Map 1 (4 tasks), Reducer 2 ("),
                    "four map tasks on two ranks, as MR");
            hive.query("SET tez.grouping.min-size=52428800");
            hive.query("SET tez.grouping.max-size=1073741824");
            String ordered = groupBy + " ORDER BY category";
            String dag = String.join("\n", hive.query("EXPLAIN " + ordered));
            assertTrue(dag.contains("DataMPI DAG") && dag.contains("Reducer 3 <- Reducer 2 (SIMPLE_EDGE)")
                    && !dag.contains("Tez"), "EXPLAIN names the datampi DAG, with Hive's vertices and edges: " + dag);
            String formatted = String.join("\n", hive.query("EXPLAIN FORMATTED " + ordered));
            assertTrue(formatted.contains("\"DataMPI DAG\"") && formatted.contains("Reducer 3"), formatted);
            assertEquals(grouped, sortedRows(ordered, ", Reducer 2 (2 tasks), Reducer 3 (1 tasks); on 2 ranks"),
                    "a reduce vertex feeding another, as MR");
            assertTrue(String.join("\n", hive.query("EXPLAIN " + union)).contains("Union 2"), "a vertex group");
            assertEquals(unioned, sortedRows(union, ": Map 1 ("), "a union's vertices writing, as MR");
            assertEquals(unionedGrouped, sortedRows(unionGrouped, ", Reducer "), "a union feeding a GROUP BY, as MR");
            hive.query("INSERT OVERWRITE TABLE dag_target " + select);
            int before = hive.consoleText().length();
            hive.query("SET hive.execution.engine");
            assertTrue(hive.consoleText().substring(before).contains("hive.execution.engine=datampi"),
                    "only the query's configuration said tez");
            String invalid = hive.failure("SET hive.datampi.plan=graph").getMessage();
            assertTrue(invalid.contains("'graph' for hive.datampi.plan: expected dag or mapreduce"), invalid);
        } finally {
            hive.query("SET hive.datampi.plan=dag");
        }
        hive.setEngine("mr");
        assertEquals(selected, sortedRows("SELECT * FROM dag_target", "job_local"),
                "the DAG's INSERT OVERWRITE wrote the map vertex's rows");
        mapreduceShape();
        String mapreduce = String.join("\n", hive.query("EXPLAIN " + select));
        assertTrue(mapreduce.contains("DataMPI") && !mapreduce.contains("Vertex"), mapreduce);
    }

    /**
     * A cross product's edges (hive.tez.cartesian-product.enabled, a join without keys) run on the ranks with the rows
     * of Hive on MR: the destination's two tasks each pair their share of one source with all of the other.
     */
    @Test
    void crossProductEdgesRunOnTheRanks() {
        String crossProduct = "SELECT a.category, b.category, count(*), sum(a.amount * b.id) FROM (SELECT * FROM "
                + "sales_orc WHERE id % 40 = 1) a CROSS JOIN (SELECT * FROM sales_text WHERE id % 60 = 2) b "
                + "GROUP BY a.category, b.category";
        hive.setEngine("mr");
        List<String> crossedByMr = sortedRows(crossProduct, "job_local");
        assertFalse(crossedByMr.isEmpty(), "MR joins rows");
        hive.setEngine("datampi");
        try {
            hive.query("SET hive.tez.cartesian-product.enabled=true");
            hive.query("SET hive.auto.convert.join=false");
            String explained = String.join("\n", hive.query("EXPLAIN " + crossProduct));
            Matcher destination = Pattern.compile("(Reducer \\d+) <- Map \\d+ \\(XPROD_EDGE\\)").matcher(explained);
            assertTrue(destination.find(), "a cross product's edges: " + explained);
            assertEquals(crossedByMr, sortedRows(crossProduct, destination.group(1) + " (2 tasks)"),
                    "the cross product on two tasks, as MR");
        } finally {
            hive.query("SET hive.tez.cartesian-product.enabled=false");
            hive.query("SET hive.auto.convert.join=true");
        }
    }

    /**
     * An administrator locks the launch settings with Hive's own restricted list (hive-site.xml): a session cannot
     * raise the ranks' heap, allow oversubscription or point at another hostfile.
     */
    @Test
    void anAdministratorLocksTheLaunchSettingsWithHivesRestrictedList() throws Exception {
        // The same state directory: Hive keeps one metastore connection per JVM, so a session on a metastore of its
        // own would close the class session's.
        try (HiveSession locked = new HiveSession(root.resolve("state"), Map.of(
                "hive.conf.restricted.list", "hive.datampi.heap,hive.datampi.oversubscribe,hive.datampi.hostfile"))) {
            for (String setting : List.of("hive.datampi.heap=64g", "hive.datampi.oversubscribe=true",
                    "hive.datampi.hostfile=/etc/hosts")) {
                String error = locked.failure("SET " + setting).getMessage();
                assertTrue(error.contains("Cannot modify " + setting.substring(0, setting.indexOf('='))
                        + " at runtime"), error);
            }
            locked.query("SET hive.datampi.sendqueue=8");
        }
    }

    /**
     * A wrong value of a datampi setting is refused at its SET, naming the key and what it accepts, and not kept: the
     * next query runs. A heap above the administrator's cap (hive.datampi.heap.max) is refused the same way.
     */
    @Test
    void aWrongDatampiSettingIsRefusedAtItsSetAndNotKept() {
        hive.setEngine("datampi");
        Map<String, String> refused = Map.of(
                "hive.datampi.sendqueue=none", "Invalid value 'none' for hive.datampi.sendqueue: expected a positive",
                "hive.datampi.mpi=lam", "Invalid value 'lam' for hive.datampi.mpi: expected one of openmpi, mpich, "
                        + "impi",
                "hive.datampi.memusedpercent=2", "Invalid value '2' for hive.datampi.memusedpercent: expected a number "
                        + "in (0, 1]",
                "hive.datampi.hostfile=/no/such/hostfile", "Invalid value '/no/such/hostfile' for "
                        + "hive.datampi.hostfile: expected a readable mpidrun hostfile",
                "hive.datampi.stage.timeout=0", "Invalid value '0' for hive.datampi.stage.timeout: expected a positive "
                        + "number of seconds");
        refused.forEach((setting, expected) -> {
            String error = hive.failure("SET " + setting).getMessage();
            assertTrue(error.contains(expected), setting + ": " + error);
        });
        hive.query("SET hive.datampi.heap.max=1g");
        try {
            String error = hive.failure("SET hive.datampi.heap=4g").getMessage();
            assertTrue(error.contains("hive.datampi.heap=4g is more than hive.datampi.heap.max=1g"), error);
            int before = hive.consoleText().length();
            hive.query("SET hive.datampi.heap");
            assertTrue(hive.consoleText().substring(before).contains("hive.datampi.heap=768m"), "the heap is kept");
            String count = "SELECT count(*) FROM sales_orc";
            List<String> datampi = sortedRows(count, "job_datampi");
            hive.setEngine("mr");
            assertEquals(sortedRows(count, "job_local"), datampi, "the next query runs with the values kept");
        } finally {
            hive.query("SET hive.datampi.heap.max=64g");
        }
    }

    /** Regression: every stage left its submit directory behind, and CI's disk filled up. */
    @Test
    void finishedStagesLeaveNothingInTheStagingArea() throws Exception {
        hive.setEngine("datampi");
        hive.query("SELECT category, count(*) FROM sales_orc GROUP BY category");
        try (Stream<Path> files = Files.walk(root.resolve("state/staging"))) {
            assertEquals(List.of(), files.filter(p -> p.getFileName().toString().startsWith("job_")).toList());
        }
    }

    @Test
    void everyRankLogsTheHiveQueryItRuns() throws Exception {
        hive.setEngine("datampi");
        int before = hive.consoleText().length();
        hive.query("SELECT flag, count(*) FROM sales_text GROUP BY flag");
        Matcher logs = Pattern.compile("datampi: rank logs in (\\S+)").matcher(hive.consoleText().substring(before));
        assertTrue(logs.find(), hive.consoleText().substring(before));
        String queryId = hive.consoleText().substring(before).replaceAll("(?s).*Query ID = (\\S+).*", "$1");
        try (Stream<Path> files = Files.list(Path.of(logs.group(1)))) {
            List<Path> rankLogs = files.filter(p -> p.getFileName().toString().matches("rank-\\d+\\.log")).toList();
            assertEquals(2, rankLogs.size(), "one log per rank: " + rankLogs);
            for (Path log : rankLogs) {
                assertTrue(Files.readString(log).contains("Hive query " + queryId), log + " names query " + queryId);
            }
        }
    }

    @Test
    void aMisspelledEngineIsRefusedWithTheAcceptedNames() {
        String error = hive.failure("SET hive.execution.engine=datmpi").getMessage();
        assertTrue(error.contains("datmpi") && error.contains("datampi") && error.contains("mr"), error);
    }

    @Test
    void defaultParallelismGivesOneATaskPerRankAndEnhancedAsManyAsOTasks() {
        mapreduceShape();
        String query = "SELECT qty, count(*) FROM sales_text GROUP BY qty";
        hive.query("SET hive.datampi.parallelism=default");
        int[] defaults = taskCounts(query);
        assertEquals(4, defaults[0], "one O task per input file");
        assertEquals(2, defaults[1], "Hive's reducer estimate for a few KB (1), raised to one per rank (2)");
        hive.query("SET hive.datampi.parallelism=enhanced");
        // The last stage of a query gets one A task; a stage before it gets as many as O tasks.
        int[] enhanced = taskCounts("SELECT q, count(*) FROM (SELECT qty q, count(*) n FROM sales_text GROUP BY qty "
                + "ORDER BY n LIMIT 100) t GROUP BY q");
        assertEquals(4, enhanced[0]);
        assertEquals(4, enhanced[1]);
        hive.query("SET hive.datampi.parallelism=default");
    }

    /**
     * A query without a table (the quickstart's generated rows) reads Hive's one-row input, whose splits Tez's own
     * split generator makes (not Hive's): in the DAG shape too, with the rows of Hive on MR. Its split names no host
     * ("localhost"), so the console says nothing of locality (it said "O tasks data-local: 0 of 1").
     */
    @Test
    void aQueryWithoutATableRunsInTheDagShape() {
        String generated = "SELECT pos % 7, count(*), sum(pos) FROM (SELECT posexplode(split(space(999), ' ')) AS "
                + "(pos, unused)) t GROUP BY pos % 7";
        hive.setEngine("mr");
        List<String> mr = sortedRows(generated, "job_local");
        hive.setEngine("datampi");
        int before = hive.consoleText().length();
        assertEquals(mr, sortedRows(generated, ": Map 1 (1 tasks), Reducer 2 ("));
        String console = hive.consoleText().substring(before);
        assertFalse(console.contains("data-local"), "no locality where it means nothing:\n" + console);
    }

    /**
     * The DAG shape counts a reduce vertex's tasks as the mapreduce shape its A tasks: Hive's estimate raised to one
     * per rank by default; with enhanced parallelism as many as the map vertex's tasks, and one for the last vertex.
     */
    @Test
    void theDagShapeFollowsTheParallelismSetting() {
        hive.setEngine("datampi");
        // One map task per text file (Tez's split grouping off).
        hive.query("SET tez.grouping.min-size=1");
        hive.query("SET tez.grouping.max-size=1");
        String twoLevels = "SELECT n, count(*) FROM (SELECT qty, count(*) n FROM sales_text GROUP BY qty) t "
                + "GROUP BY n";
        try {
            List<String> rows = sortedRows(twoLevels, ": Map 1 (4 tasks), Reducer 2 (2 tasks), Reducer 3 (2 tasks)");
            hive.query("SET hive.datampi.parallelism=enhanced");
            assertEquals(rows, sortedRows(twoLevels, ": Map 1 (4 tasks), Reducer 2 (4 tasks), Reducer 3 (1 tasks)"));
        } finally {
            hive.query("SET hive.datampi.parallelism=default");
            hive.query("SET tez.grouping.min-size=52428800");
            hive.query("SET tez.grouping.max-size=1073741824");
        }
    }

    /**
     * A wrong value that reached the session anyway (hive-site.xml, a --hiveconf: Hive validates neither) is refused
     * before the next statement compiles, naming the key, as HiveServer2 refuses one it cannot check at its SET.
     */
    @Test
    void aBadKnobValueFromTheSessionsConfigurationNamesTheKeyBeforeAnythingRuns() {
        hive.setEngine("datampi");
        String error = hive.failure("SET hive.datampi.parallelism=bogus").getMessage();
        assertTrue(error.contains("hive.datampi.parallelism") && error.contains("default or enhanced"), error);
        hive.conf().set("hive.datampi.parallelism", "bogus");
        try {
            error = hive.failure("SELECT count(*) FROM sales_text").getMessage();
            assertTrue(error.contains("Invalid value 'bogus' for hive.datampi.parallelism: expected default or "
                    + "enhanced"), error);
        } finally {
            hive.conf().set("hive.datampi.parallelism", "default");
        }
    }

    /**
     * A query of one column reads less of an ORC table than a query of all columns. Measured as the bytes the O tasks'
     * processes read (Linux's count; Hadoop's local file system does not count ORC's vectored reads): the full scan
     * must read at least half of the table's bytes more than the one-column query.
     */
    @Test
    void orcColumnProjectionReadsFewerBytesThanAFullScan() throws Exception {
        // Hive keeps a MapReduce-shaped stage's counters where osBytesRead reads them.
        mapreduceShape();
        long tableBytes;
        try (Stream<Path> files = Files.walk(HiveSession.HOME.resolve(
                "hive-datampi-engine/target/it-engine/state/warehouse-external/wide_orc"))) {
            tableBytes = files.filter(p -> p.getFileName().toString().startsWith("0")).mapToLong(p -> p.toFile().length())
                    .sum();
        }
        // The shape's first stage on the session's warm ranks loads its classes, which Linux counts as bytes read.
        osBytesRead("SELECT sum(qty) FROM wide_orc");
        long projected = osBytesRead("SELECT sum(qty) FROM wide_orc");
        long full = osBytesRead("SELECT sum(hash(id, name, category, amount, qty, d, ts, flag)) FROM wide_orc");
        assertTrue(projected > 0 && full - projected > tableBytes / 2,
                "projected " + projected + " vs full " + full + " bytes read, table " + tableBytes + " bytes");
    }

    private List<String> sortedRows(String query, String jobPrefix) {
        int before = hive.consoleText().length();
        List<String> rows = hive.query(query).stream().sorted().toList();
        assertTrue(hive.consoleText().substring(before).contains(jobPrefix), "ran as " + jobPrefix);
        return rows;
    }

    /**
     * The O and A task counts of the query's first (MapReduce-shaped) stage, as Hive's console reports them; the
     * console has none of the lines Hive prints for a YARN job (an empty tracking URL, a kill command that reaches no
     * datampi job).
     */
    private int[] taskCounts(String query) {
        int before = hive.consoleText().length();
        hive.query(query);
        String console = hive.consoleText().substring(before);
        Matcher counts = TASK_COUNTS.matcher(console);
        assertTrue(counts.find(), console);
        assertTrue(console.contains("Starting Job = job_datampi") && !console.contains("Tracking URL")
                && !console.contains("Kill Command"), console);
        return new int[] {Integer.parseInt(counts.group(1)), Integer.parseInt(counts.group(2))};
    }

    private long osBytesRead(String query) {
        hive.query(query);
        long bytes = 0;
        for (MapRedStats stage : SessionState.get().getMapRedStats().values()) {
            bytes += stage.getCounters().findCounter("datampi", "OS_BYTES_READ").getValue();
        }
        return bytes;
    }
}
