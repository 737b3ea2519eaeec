package org.datampi.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.datampi.bench.it.SimulatedCluster.Result;
import org.datampi.bench.it.udf.Shout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Hive on datampi across simulated hosts (bin/cluster-sim) on Open MPI: three network namespaces, each with its own
 * private /tmp, state and log directories, HDFS's own NameNode and DataNodes, and ranks started on every host through
 * Open MPI's launch agent, talking TCP over a bridge. Nothing but HDFS and MPI is shared between the Hive host and
 * the ranks: a file only the Hive host has (a map join's hash tables, an added jar) must reach the ranks through them.
 * Answers are checked against Hive's MapReduce engine over the same HDFS tables, and TPC-H's against DuckDB. When the
 * machine cannot create namespaces, up fails with a message that says so, and so does this test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterSimIT {
    private static final int HOSTS = 3;
    private static final int RANKS = 2 * HOSTS;
    private static final String VISITS = "CREATE TABLE visits STORED AS ORC AS SELECT pos AS id, concat('page', "
            + "pos % 97) AS page, pos % 13 AS duration FROM (SELECT posexplode(split(space(199999), ' '))) t;";
    private static final String PAGES = "CREATE TABLE pages AS SELECT concat('page', pos) AS page, "
            + "concat('site', pos % 5) AS site FROM (SELECT posexplode(split(space(60), ' '))) t;";

    private SimulatedCluster cluster;

    @BeforeAll
    void up() throws Exception {
        cluster = SimulatedCluster.up(HOSTS, "openmpi", SimulatedCluster.HOME.resolve(
                "hive-datampi-benchmarks/target/it-cluster-sim"));
        Result tables = cluster.hive("tables", VISITS + PAGES + "DESCRIBE FORMATTED visits;");
        assertEquals(0, tables.exit(), "the tables are made on datampi:\n" + tables.output());
        assertTrue(tables.output().matches("(?s).*Location:\\s+hdfs://dmp1:9000/warehouse[-a-z]*/visits.*"),
                "the table is in the cluster's HDFS:\n" + tables.output());
    }

    @AfterAll
    void down() throws Exception {
        cluster.close();
    }

    @Test
    void groupByOverHdfsAcrossHostsEqualsMapReduce() throws Exception {
        String query = "SELECT page, count(*), sum(duration), min(id) FROM visits GROUP BY page ORDER BY page;";
        List<String> datampi = assertSameRowsAsMr("group-by", "", query);
        assertEquals(97, datampi.size(), "one row per page");
        for (int host = 1; host <= HOSTS; host++) {
            // No hive.datampi.processes is set: a stage runs on all the hostfile's slots, two per host.
            Result rankLogs = cluster.exec("logs-dmp" + host, "dmp" + host, "bash", "-c",
                    "grep -l 'of " + RANKS + " starts job' logs/job_*/rank-*.log");
            assertEquals(0, rankLogs.exit(), "dmp" + host + " ran ranks of a " + RANKS + "-rank group and kept their "
                    + "logs in its own logs directory:\n" + rankLogs.output());
        }
    }

    @Test
    void moreRanksThanTheHostfilesSlotsAreRefused() throws Exception {
        Result refused = cluster.hive("oversubscribed", "SET hive.datampi.processes=" + (RANKS + 1) + "; "
                + "SELECT page, count(*) FROM visits GROUP BY page;");
        assertTrue(refused.exit() != 0, "the query fails:\n" + refused.output());
        assertTrue(refused.output().matches("(?s).*hive.datampi.processes=" + (RANKS + 1) + " is more than the "
                + RANKS + " slots of the hostfile \\S+/target/cluster-sim/hostfile; set "
                + "hive.datampi.oversubscribe=true.*"), "the error names the setting, the hostfile and its slots:\n"
                + refused.output());
    }

    /**
     * Hive's local task writes a map join's hash tables into the Hive host's private scratch directory; its driver
     * uploads them to HDFS as one archive per stage. Rank 0 must read that archive once (the NameNode's audit log
     * counts the opens) and broadcast it to all six ranks, whose O tasks then join on every host.
     */
    @Test
    void mapJoinHashTablesAreReadOnceAndBroadcastToEveryRank() throws Exception {
        List<String> auditBefore = cluster.hdfsAudit();
        String query = "SET hive.auto.convert.join=true; SELECT p.site, count(*), sum(v.duration) FROM visits v "
                + "JOIN pages p ON v.page = p.page GROUP BY p.site;";
        Result datampi = assertSameOutputAsMr("map-join", query);
        assertTrue(datampi.output().contains("Dump the side-table"), "Hive built a map join's hash table:\n"
                + datampi.output());
        assertTrue(datampi.output().matches("(?s).*job files: \\d+ \\(\\d+ bytes\\) read once, broadcast to "
                + RANKS + " ranks.*"), "the console tells how the job's files reached the ranks:\n" + datampi.output());
        List<String> hashTableOpens = cluster.hdfsAudit().stream().skip(auditBefore.size())
                .filter(line -> line.contains("cmd=open") && line.matches(".*src=\\S*/HashTable-Stage-\\d+/.*"))
                .toList();
        assertEquals(1, hashTableOpens.size(), "one read of the hash tables for " + RANKS + " ranks: "
                + hashTableOpens);
    }

    /** The jar is in the Hive host's private /tmp: the ranks on the other hosts can only get it through MPI. */
    @Test
    void aUdfFromAJarOnlyTheHiveHostHasRunsOnEveryHost() throws Exception {
        Path jar = cluster.logs().resolve("shout-udf.jar");
        String entry = Shout.class.getName().replace('.', '/') + ".class";
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                InputStream in = Shout.class.getClassLoader().getResourceAsStream(entry)) {
            out.putNextEntry(new JarEntry(entry));
            in.transferTo(out);
        }
        Result copy = cluster.exec("udf-copy", "dmp1", "cp", jar.toString(), "/tmp/shout-udf.jar");
        assertEquals(0, copy.exit(), copy.output());
        String udf = "ADD JAR /tmp/shout-udf.jar; CREATE TEMPORARY FUNCTION shout AS '" + Shout.class.getName() + "'; ";
        assertSameRowsAsMr("udf", udf, "SELECT shout(page), count(*) FROM visits GROUP BY shout(page);");
        for (int host = 2; host <= HOSTS; host++) {
            Result added = cluster.exec("udf-dmp" + host, "dmp" + host, "bash", "-c",
                    "grep -l 'Added jars' logs/job_*/rank-*.log");
            assertEquals(0, added.exit(), "ranks on dmp" + host + " loaded the added jar:\n" + added.output());
        }
    }

    /**
     * Six files of one replica each, every one written by an A task on its own rank, so on that rank's host (HDFS puts
     * a writer's first replica on its own DataNode): two on each host. A scan of them has six O tasks, each with one
     * host holding its input. Placed blindly, a third of them would read locally; the scheduler places them by the
     * split's hosts, and each O task counts itself data-local or not.
     */
    @Test
    void oTasksGoToTheHostsThatHoldTheirBlocks() throws Exception {
        Result written = cluster.hive("locality-table", "SET dfs.replication=1; SET mapreduce.job.reduces=" + RANKS
                + "; CREATE TABLE spread STORED AS ORC AS SELECT * FROM visits DISTRIBUTE BY id;");
        assertEquals(0, written.exit(), written.output());
        String scan = "SET hive.input.format=org.apache.hadoop.hive.ql.io.HiveInputFormat; "
                + "SELECT page, count(*), max(duration) FROM spread GROUP BY page;";
        Result datampi = assertSameOutputAsMr("locality", scan);
        Matcher locality = Pattern.compile("O tasks data-local: (\\d+) of (\\d+)")
                .matcher(datampi.output());
        assertTrue(locality.find(), "the console reports the stage's locality:\n" + datampi.output());
        assertEquals(RANKS, Integer.parseInt(locality.group(2)), "one O task per file:\n" + datampi.output());
        assertTrue(Integer.parseInt(locality.group(1)) >= RANKS - 1, "O tasks ran where their blocks are: "
                + locality.group());
    }

    @Test
    void tpchAnswersAcrossHostsEqualDuckDb() throws Exception {
        cluster.assertTpchAnswersAsDuckDb("orc");
    }

    private List<String> assertSameRowsAsMr(String name, String setup, String query) throws Exception {
        Result datampi = assertSameOutputAsMr(name, setup + query);
        return rows(datampi.output());
    }

    /** Runs the statements on datampi and on MR; both succeed and print the same result rows in the same order. */
    private Result assertSameOutputAsMr(String name, String statements) throws Exception {
        Result datampi = cluster.hive(name + "-datampi", statements);
        assertEquals(0, datampi.exit(), "Hive on datampi on the cluster:\n" + datampi.output());
        assertTrue(datampi.output().contains("job_datampi"), "a datampi stage ran:\n" + datampi.output());
        Result mr = cluster.hiveOnMr(name + "-mr", statements);
        assertEquals(0, mr.exit(), "Hive on MR on the cluster:\n" + mr.output());
        List<String> expected = rows(mr.output());
        assertFalse(expected.isEmpty(), "MR returned rows:\n" + mr.output());
        assertEquals(sorted(expected), sorted(rows(datampi.output())), "datampi's rows equal MR's");
        return datampi;
    }

    /** The result rows in a session's output: the lines with a tab (Hive's CLI separates columns with tabs). */
    private static List<String> rows(String output) {
        return output.lines().filter(line -> line.contains("\t") && !line.matches("^\\d{4}-\\d\\d-\\d\\d.*"))
                .toList();
    }

    private static List<String> sorted(List<String> rows) {
        return rows.stream().sorted().toList();
    }
}
