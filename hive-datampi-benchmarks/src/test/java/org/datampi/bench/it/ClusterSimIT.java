package org.datampi.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Hive on datampi across simulated hosts (bin/cluster-sim): three network namespaces, each with its own private
 * /tmp, state and log directories, HDFS's own NameNode and DataNodes, and ranks started on every host through
 * Open MPI's launch agent, talking TCP over a bridge. A GROUP BY over a table in HDFS must give the same rows on
 * datampi as on Hive's MapReduce engine, its ranks must have run on every host, and down must leave nothing.
 * When the machine cannot create namespaces, up fails with a message that says so, and so does this test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterSimIT {
    private static final Path HOME = Path.of(System.getProperty("datampi.home")).toAbsolutePath().normalize();
    private static final int HOSTS = 3;
    private final Path logs = HOME.resolve("hive-datampi-benchmarks/target/it-cluster-sim");

    @BeforeAll
    void up() throws Exception {
        Files.createDirectories(logs);
        run("down-before", "bin/cluster-sim", "down");
        Result up = run("up", "bin/cluster-sim", "up", "--hosts", Integer.toString(HOSTS), "--mpi", "openmpi");
        assertEquals(0, up.exit(), "bin/cluster-sim up:\n" + up.output());
    }

    @AfterAll
    void down() throws Exception {
        Result down = run("down", "bin/cluster-sim", "down");
        assertEquals(0, down.exit(), "bin/cluster-sim down:\n" + down.output());
        Result netns = run("netns", "ip", "netns", "list");
        assertFalse(netns.output().contains("dmp"), "no host's namespace is left: " + netns.output());
    }

    @Test
    void groupByOverHdfsAcrossHostsEqualsMapReduce() throws Exception {
        String table = "CREATE TABLE visits STORED AS ORC AS SELECT pos AS id, concat('page', pos % 97) AS page, "
                + "pos % 13 AS duration FROM (SELECT posexplode(split(space(199999), ' '))) t;";
        String query = "SELECT page, count(*), sum(duration), min(id) FROM visits GROUP BY page ORDER BY page;";
        Result datampi = run("datampi", "bin/cluster-sim", "hive", "-e",
                "SET hive.execution.engine=datampi; " + table + " DESCRIBE FORMATTED visits; " + query);
        assertEquals(0, datampi.exit(), "Hive on datampi on the cluster:\n" + datampi.output());
        assertTrue(datampi.output().contains("job_datampi"), "a datampi stage ran:\n" + datampi.output());
        assertTrue(datampi.output().matches("(?s).*Location:\\s+hdfs://dmp1:9000/warehouse[-a-z]*/visits.*"),
                "the table is in the cluster's HDFS:\n" + datampi.output());
        // Hive on MR in Hadoop's local runner on dmp1, reading the same table from HDFS; the local runner wants its
        // staging directory on the local file system.
        Result mr = run("mr", "bin/cluster-sim", "hive", "--hiveconf", "mapreduce.framework.name=local",
                "--hiveconf", "mapreduce.jobtracker.staging.root.dir=file:///tmp/mr-staging", "-e",
                "SET hive.execution.engine=mr; " + query);
        assertEquals(0, mr.exit(), "Hive on MR on the cluster:\n" + mr.output());
        List<String> expected = rows(mr.output());
        assertEquals(97, expected.size(), "one row per page from MR:\n" + mr.output());
        assertEquals(expected, rows(datampi.output()), "datampi's rows equal MR's");

        for (int host = 1; host <= HOSTS; host++) {
            Result rankLogs = run("logs-dmp" + host, "bin/cluster-sim", "exec", "dmp" + host, "bash", "-c",
                    "ls logs/job_*/rank-*.log");
            assertEquals(0, rankLogs.exit(), "dmp" + host + " ran ranks and kept their logs in its own logs "
                    + "directory:\n" + rankLogs.output());
        }
    }

    /** The result rows of this test's query in a session's output: page name, count, sum, min, tab-separated. */
    private static List<String> rows(String output) {
        return output.lines().filter(line -> line.matches("page\\d+\t\\d+\t\\d+\t\\d+")).toList();
    }

    private record Result(int exit, String output) {
    }

    private Result run(String name, String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(command));
        if (command[0].startsWith("bin/")) {
            line.set(0, HOME.resolve(command[0]).toString());
        }
        Path log = logs.resolve(name + ".log");
        Process process = new ProcessBuilder(line).directory(HOME.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not end within 10 minutes; see " + log);
        }
        return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }
}
