package org.datampi.hive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The ranks' cache of ORC data (hive.datampi.io.cache.size: Hive's LLAP I/O layer in each rank, RankIoCache), off by
 * default: with it on, queries over an ORC table give Hive on MR's rows, the first run reads the files and a second
 * run of the same scan on the same warm ranks reads the cache, each of the table's eight files preferring the rank
 * whose cache holds it (RankAffinity: how many ran there is the scheduler's, which does not hold a task for its rank);
 * a table rewritten since is read again from its files, with its new rows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IoCacheIT {
    private static final Pattern PLACED = Pattern.compile("O tasks data-local: \\d+ of (\\d+)");
    private static final Pattern ORC_DATA = Pattern.compile(
            "ORC data: (\\d+) bytes from the ranks' cache, (\\d+) bytes from the files");
    /** Eight files (eight reducers on MR), for tasks on both ranks. */
    private static final String VISITS = "CREATE TABLE visits STORED AS ORC AS SELECT pos AS id, concat('page', "
            + "pos % 97) AS page, pos % 13 AS duration FROM (SELECT posexplode(split(space(199999), ' '))) t "
            + "DISTRIBUTE BY id";
    private static final String GROUP_BY = "SELECT page, count(*), sum(duration), max(id) FROM visits GROUP BY page";
    private static final String BUCKET_MAP_JOIN = "SELECT p.len, count(*), sum(v.duration) FROM visits_bucketed v "
            + "JOIN pages p ON v.page = p.page GROUP BY p.len";

    private HiveSession hive;

    @BeforeAll
    void start() throws Exception {
        Path root = HiveSession.HOME.resolve("hive-datampi-engine/target/it-io-cache");
        FileUtil.fullyDelete(root.toFile());
        // Each file a task of its own (Tez would group a table this small into one task), on two ranks.
        hive = new HiveSession(root.resolve("state"), Map.of("hive.datampi.processes", "2",
                "hive.datampi.heap", "768m", "hive.datampi.io.cache.size", "128m",
                "hive.fetch.task.conversion", "none", "tez.grouping.split-count", "8"));
        hive.setEngine("mr");
        hive.query("SET mapreduce.job.reduces=8");
        hive.query(VISITS);
        hive.query("SET mapreduce.job.reduces=-1");
    }

    @AfterAll
    void close() throws Exception {
        hive.close();
    }

    @Test
    void aSecondScanReadsTheCacheAndARewrittenTableItsFiles() {
        hive.setEngine("mr");
        List<String> onMr = QueryCorpus.sorted(hive.query(GROUP_BY));
        hive.setEngine("datampi");
        long[] first = run(onMr);
        assertTrue(first[1] > 0, "the first scan read the files: " + first[0] + " from the cache, " + first[1]);
        long[] second = run(onMr);
        assertTrue(second[0] > 0, "the second scan read the cache: " + second[0] + " from the cache, " + second[1]);
        assertEquals(8, second[2], "each of the eight files' tasks prefers the rank whose cache holds it");

        hive.setEngine("mr");
        hive.query("INSERT OVERWRITE TABLE visits SELECT id, page, duration + 1 FROM visits WHERE id % 2 = 0");
        List<String> rewritten = QueryCorpus.sorted(hive.query(GROUP_BY));
        hive.setEngine("datampi");
        long[] after = run(rewritten);
        assertTrue(after[1] > 0, "the rewritten table's files were read: " + after[0] + " from the cache, "
                + after[1]);
    }

    /**
     * With the cache on, what it does not hold is read as without it: a text table (Hive's re-encoding of other
     * formats into the cache is off), a partition whose column type the table has changed since (Hive does not
     * vectorize its scan under LLAP I/O: the compiler sees the setting), and a bucket map join.
     */
    @Test
    void aTextTableAndAPartitionOfAnOlderTypeGiveMrsRows() {
        hive.setEngine("mr");
        hive.query("CREATE TABLE visits_text STORED AS TEXTFILE AS SELECT * FROM visits");
        hive.query("CREATE TABLE durations (id int, duration int) PARTITIONED BY (part string) STORED AS ORC");
        hive.query("INSERT INTO durations PARTITION (part = 'old') SELECT id, duration * 100000 FROM visits");
        hive.query("ALTER TABLE durations CHANGE duration duration bigint");
        hive.query("INSERT INTO durations PARTITION (part = 'new') SELECT id, duration * 10000000000 FROM visits");
        hive.query("CREATE TABLE visits_bucketed (id int, page string, duration int) CLUSTERED BY (page) INTO 4 "
                + "BUCKETS STORED AS ORC");
        hive.query("INSERT OVERWRITE TABLE visits_bucketed SELECT * FROM visits");
        hive.query("CREATE TABLE pages STORED AS ORC AS SELECT DISTINCT page, length(page) AS len FROM visits");
        List<String> queries = List.of("SELECT page, count(*), sum(duration), max(id) FROM visits_text GROUP BY page",
                "SELECT part, count(*), sum(duration), max(duration) FROM durations GROUP BY part", BUCKET_MAP_JOIN);
        // Hive's bucket map join vertex manager makes its own split location provider (the query's, RankAffinity)
        // from the input's configuration, which does not say the stage's ranks.
        hive.setEngine("datampi");
        hive.query("SET hive.disable.unsafe.external.table.operations=false");
        hive.query("SET hive.auto.convert.join=true");
        List<String> plan = hive.query("EXPLAIN " + BUCKET_MAP_JOIN);
        assertTrue(plan.stream().anyMatch(line -> line.contains("(CUSTOM_EDGE)")), String.join("\n", plan));
        for (String query : queries) {
            hive.setEngine("mr");
            List<String> onMr = QueryCorpus.sorted(hive.query(query));
            hive.setEngine("datampi");
            int console = hive.consoleText().length();
            assertEquals(onMr, QueryCorpus.sorted(hive.query(query)), query);
            assertTrue(hive.consoleText().substring(console).contains("job_datampi"), "a datampi stage ran: " + query);
        }
    }

    /**
     * Runs GROUP_BY on datampi, checks its rows against EXPECTED; the bytes it read from the cache and the files, and
     * how many of its tasks preferred a rank or host.
     */
    private long[] run(List<String> expected) {
        int console = hive.consoleText().length();
        assertEquals(expected, QueryCorpus.sorted(hive.query(GROUP_BY)));
        String printed = hive.consoleText().substring(console);
        assertTrue(printed.contains("job_datampi"), "a datampi stage ran:\n" + printed);
        Matcher bytes = ORC_DATA.matcher(printed);
        assertTrue(bytes.find(), "the stage's ORC data line:\n" + printed);
        Matcher placed = PLACED.matcher(printed);
        return new long[] {Long.parseLong(bytes.group(1)), Long.parseLong(bytes.group(2)),
            placed.find() ? Long.parseLong(placed.group(1)) : 0};
    }
}
