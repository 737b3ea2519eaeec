package org.datampi.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hive.common.io.SessionStream;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.datampi.bench.harness.ResultRows;
import org.datampi.bench.tpcds.TpcdsGenerator;
import org.datampi.bench.tpcds.TpcdsLayout;
import org.datampi.bench.tpcds.TpcdsCheck;
import org.datampi.bench.tpcds.TpcdsLoader;
import org.datampi.bench.tpcds.TpcdsOracle;
import org.datampi.bench.tpcds.TpcdsQuery;
import org.datampi.hive.session.QuerySession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 99 TPC-DS queries (103 parts) on datampi as users get it (the DAG shape), at scale 0.01 over ORC, with the
 * tables as loaded by bin/tpcds-load, each part checked against DuckDB running the query as DuckDB ships it over the
 * same generated files: row counts and every text and integer value exactly, other numbers within a relative 1e-6 or
 * 0.01. One Hive session for all. All 99 run over the flat tables; over the partitioned ones (the seven fact tables by
 * their date key, some 12,000 partitions of one small file each) the queries of {@code tpcds.partitioned.queries}
 * (default {@value #PARTITIONED_QUERIES}: star joins whose date filters dynamic partition pruning turns into a few
 * partitions of each fact table, and inventory; q20, q98's template over catalog_sales, is left to the full run, so that
 * CI loads no partitioned catalog_sales, some 1,800 partitions), since a query there that prunes nothing reads every partition (all
 * 99 take 15 minutes at this scale); {@code mvn verify -Dit.test=TpcdsAnswersIT -Dtpcds.partitioned.queries=1-99}
 * runs all of them. The partitioned database holds the tables those queries read.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpcdsAnswersIT {
    private static final String SCALE = "0.01";
    static final String PARTITIONED_QUERIES = "3,7,19,21,22,42,52,55,68,73,98";
    private static final Pattern DAG_STAGE = Pattern.compile("datampi: Stage-\\d+ job_datampi\\S+: Map \\d+ \\(");
    private static final Pattern SUMMARY = Pattern.compile("(?m)^Task Execution Summary$");
    private static final Path HOME = Path.of(System.getProperty("datampi.home")).toAbsolutePath().normalize();

    private QuerySession hive;
    private ByteArrayOutputStream console;
    private TpcdsOracle duckdb;

    @BeforeAll
    void loadData() throws Exception {
        Path root = HOME.resolve("hive-datampi-benchmarks/target/it-tpcds");
        FileUtil.fullyDelete(root.toFile());
        Path data = root.resolve("data");
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        new TpcdsGenerator(Double.parseDouble(SCALE), data, 2, 2, quiet).generate();

        console = new ByteArrayOutputStream();
        SessionStream stream = new SessionStream(console, true, StandardCharsets.UTF_8.name());
        hive = QuerySession.start(root.resolve("state"), Map.of("hive.datampi.heap", "768m"), stream, stream);
        TpcdsLoader loader = new TpcdsLoader(hive, HOME, quiet);
        loader.load(new TpcdsLayout(SCALE, "orc", false), data.toUri().toString());
        // The partitioned layout with the tables its queries read (store_sales for this class's own tests): each
        // partitioned fact table costs the load some 2,000 partitions, a minute on this machine.
        Set<String> tables = new TreeSet<>(Set.of("store_sales"));
        for (int number : partitionedQueries()) {
            tables.addAll(TpcdsQuery.load(HOME.resolve("tpcds-queries"), number).tables());
        }
        loader.load(new TpcdsLayout(SCALE, "orc", true), data.toUri().toString(), tables);
        console.reset();
        duckdb = TpcdsOracle.load(HOME, data);
    }

    @AfterAll
    void close() throws Exception {
        if (hive != null) {
            hive.close();
        }
        if (duckdb != null) {
            duckdb.close();
        }
    }

    static Stream<Arguments> queries() {
        return Stream.concat(
                IntStream.rangeClosed(1, TpcdsQuery.COUNT).mapToObj(number -> Arguments.of("flat", number)),
                partitionedQueries().stream().map(number -> Arguments.of("partitioned", number)));
    }

    private static List<Integer> partitionedQueries() {
        return TpcdsQuery.parseNumbers(System.getProperty("tpcds.partitioned.queries", PARTITIONED_QUERIES));
    }

    @ParameterizedTest(name = "{0} Q{1}")
    @MethodSource("queries")
    void datampiAnswersAsDuckDbDoes(String layout, int number) throws Exception {
        TpcdsQuery query = TpcdsQuery.load(HOME.resolve("tpcds-queries"), number);
        hive.execute("SET hive.execution.engine=datampi");
        hive.execute("USE " + new TpcdsLayout(SCALE, "orc", layout.equals("partitioned")).database());
        List<List<String>> expected = duckdb.answers(number);
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < query.parts().size(); i++) {
            TpcdsQuery.Part part = query.parts().get(i);
            console.reset();
            List<String> datampi;
            try {
                datampi = hive.execute(part.sql());
            } catch (CommandProcessorException e) {
                fail(part.name() + " (" + layout + ") failed on datampi: " + e.getMessage() + "\n" + tail());
                return;
            }
            String ran = console.toString(StandardCharsets.UTF_8);
            assertTrue(DAG_STAGE.matcher(ran).find(), part.name() + " ran a DAG stage on datampi:\n" + tail());
            // Every stage sums its vertices' counters for Hive and the summary: q88's 33 vertices count more than
            // Hadoop's default cap on a JVM's counters.
            assertEquals(DAG_STAGE.matcher(ran).results().count(), SUMMARY.matcher(ran).results().count(),
                    part.name() + ": a summary for each stage:\n" + tail());
            boolean ordered = part.sql().toUpperCase(Locale.ROOT).contains("ORDER BY");
            List<String> differences = ResultRows.differences(expected.get(i), "DuckDB", datampi, "datampi",
                    ordered);
            if (!differences.isEmpty()) {
                wrong.add(part.name() + " (" + layout + ") differs from DuckDB:\n" + String.join("\n",
                        differences.subList(0, Math.min(20, differences.size()))));
            }
        }
        if (!wrong.isEmpty()) {
            fail(String.join("\n", wrong));
        }
    }

    /**
     * Over the partitioned layout, store_sales is read only in the partitions whose dates q3's filter keeps (dynamic
     * partition pruning: the date_dim vertex's rows choose them): the stage's summary says how many of all, and the
     * answer is DuckDB's.
     */
    @Test
    void datesChooseTheFactTablesPartitions() throws Exception {
        TpcdsQuery query = TpcdsQuery.load(HOME.resolve("tpcds-queries"), 3);
        hive.execute("SET hive.execution.engine=datampi");
        hive.execute("USE " + new TpcdsLayout(SCALE, "orc", true).database());
        console.reset();
        long start = System.nanoTime();
        List<String> rows = hive.execute(query.parts().get(0).sql());
        double seconds = (System.nanoTime() - start) / 1e9;
        // What the benchmarks report as Hive's compile, the part of a query's time every engine shares.
        double compile = hive.lastCompileSeconds();
        assertTrue(compile > 0 && compile < seconds, "Hive's compile took " + compile + " s of " + seconds + " s");
        String ran = console.toString(StandardCharsets.UTF_8);
        Matcher pruned = PRUNED.matcher(ran);
        assertTrue(pruned.find(), "a vertex was pruned:\n" + tail());
        long kept = Long.parseLong(pruned.group(2).replace(",", ""));
        long all = Long.parseLong(pruned.group(3).replace(",", ""));
        assertTrue(kept > 0 && kept < all / 2, pruned.group() + ": q3's dates keep a few of the partitions");
        assertTrue(ran.contains(pruned.group(1) + " (tasks once "), "the console names what the scan waits for:\n"
                + tail());
        Matcher logs = RANK_LOGS.matcher(ran);
        assertTrue(logs.find(), "the console names the ranks' logs:\n" + tail());
        // Each task got Hive's plan with only its split's partitions (SplitMapPlan), logged once per rank.
        Matcher queryId = QUERY_ID.matcher(ran);
        assertTrue(queryId.find(), "the console names the query:\n" + tail());
        Pattern cut = Pattern.compile("Hive query " + Pattern.quote(queryId.group(1)) + ": "
                + Pattern.quote(pruned.group(1))
                + " task \\d+: Hive's plan with the (\\d+) partitions its split reads, of (\\d+)");
        List<String> cuts = new ArrayList<>();
        try (Stream<Path> rankLogs = Files.list(Path.of(logs.group(1)))) {
            rankLogs.map(TpcdsAnswersIT::readString).map(cut::matcher).forEach(line -> {
                while (line.find()) {
                    cuts.add(line.group(1) + " of " + line.group(2));
                }
            });
        }
        assertTrue(!cuts.isEmpty() && cuts.stream().allMatch(line -> {
            long partitions = Long.parseLong(line.substring(0, line.indexOf(' ')));
            return partitions >= 1 && partitions <= kept;
        }), "the scan's tasks got the plan with at most the " + kept + " partitions pruning kept: " + cuts + " in "
                + logs.group(1));
        assertEquals(List.of(), ResultRows.differences(duckdb.answers(3).get(0), "DuckDB", rows, "datampi", true));
        hive.execute("SET hive.execution.engine=datampi");
        assertEquals(0, hive.lastCompileSeconds(), "a command is not compiled");
    }

    /**
     * The partitioned fact tables reach Hive's planner with the column statistics the loader gathered, added up over
     * all their partitions, as on a warehouse with a real metastore: only the metastore's direct SQL aggregates
     * partitions' statistics, it needs the embedded metastore created whole (EmbeddedMetastore), and Hive 4.1.0 adds
     * up only the first batch of partitions when its reads are batched (HIVE-29203). Checked against DuckDB over the
     * same files: the count of NULLs exactly, the distinct values within a quarter (Hive's estimate).
     */
    @Test
    void thePartitionedFactTablesReachThePlannerWithTheirColumnStatistics() throws Exception {
        hive.execute("USE " + new TpcdsLayout(SCALE, "orc", true).database());
        List<String> plan = hive.execute("EXPLAIN SELECT ss_customer_sk, count(*) FROM store_sales "
                + "GROUP BY ss_customer_sk");
        String scan = plan.stream().dropWhile(line -> !line.contains("alias: store_sales"))
                .filter(line -> line.contains("Statistics:")).findFirst()
                .orElseThrow(() -> new AssertionError("no scan of store_sales in:\n" + String.join("\n", plan)));
        assertTrue(scan.contains("Column stats: COMPLETE"), scan);

        Map<String, Long> hiveStats = new HashMap<>();
        for (String row : hive.execute("DESCRIBE FORMATTED store_sales ss_customer_sk")) {
            String[] fields = row.split("\t");
            if (fields.length == 2 && fields[1].strip().matches("\\d+")) {
                hiveStats.put(fields[0].strip(), Long.parseLong(fields[1].strip()));
            }
        }
        List<String> exact = duckdb.rows("SELECT count(*) - count(ss_customer_sk), count(DISTINCT ss_customer_sk) "
                + "FROM store_sales");
        String[] duckdbStats = exact.get(0).split("\t");
        assertEquals(Long.parseLong(duckdbStats[0]), hiveStats.get("num_nulls"), "NULLs in ss_customer_sk");
        long distinct = Long.parseLong(duckdbStats[1]);
        long estimate = hiveStats.getOrDefault("distinct_count", -1L);
        // Hive merges the partitions' HyperLogLog sketches: 884 for 1,000 at scale 0.01, where one batch's would
        // still be near 1,000 (1,823 partitions of some 15 rows each); the NULL count above is what tells them apart.
        assertTrue(Math.abs(estimate - distinct) <= distinct / 4, "distinct ss_customer_sk: Hive's planner has "
                + estimate + ", DuckDB counts " + distinct);
    }

    /**
     * bin/tpcds-check, which checks a benchmark's answers at any scale, takes DuckDB's own answer, finds a changed row
     * and a missing answer, and names them.
     */
    @Test
    void theCheckCommandFindsWrongAndMissingAnswers(@TempDir Path results) throws Exception {
        List<String> q1 = duckdb.answers(1).get(0);
        List<String> q2 = new ArrayList<>(duckdb.answers(2).get(0));
        Files.write(results.resolve("q1.tsv"), q1, StandardCharsets.UTF_8);
        q2.set(0, q2.get(0).replaceFirst("\\t[^\\t]+", "\t12345.67"));
        Files.write(results.resolve("q2.tsv"), q2, StandardCharsets.UTF_8);

        TpcdsCheck.Result result = new TpcdsCheck(duckdb, HOME.resolve("tpcds-queries"), List.of(1, 2, 3))
                .check(results);

        assertEquals(3, result.parts());
        assertEquals(List.of("q2", "q3"), result.wrong());
        assertEquals(results + ": 1 of 3 parts equal DuckDB's; differ: q2, q3", result.lines().get(0));
        assertTrue(result.lines().get(1).startsWith("q2 differs from DuckDB:\nrow 1:"), result.lines().get(1));
        assertTrue(result.lines().get(result.lines().size() - 1).startsWith("q3: no answer"), result.lines()
                .toString());
    }

    private static final Pattern PRUNED = Pattern.compile(
            "(Map \\d+): dynamic partition pruning kept ([\\d,]+) of ([\\d,]+) input directories");

    private static final Pattern QUERY_ID = Pattern.compile("Query ID = (\\S+)");
    private static final Pattern RANK_LOGS = Pattern.compile("datampi: rank logs in (\\S+) ");

    private static String readString(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String tail() {
        String text = console.toString(StandardCharsets.UTF_8);
        return text.substring(Math.max(0, text.length() - 4000));
    }
}
