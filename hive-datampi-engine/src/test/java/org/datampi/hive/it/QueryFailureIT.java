package org.datampi.hive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A query that fails on datampi says why, writes nothing to its target, leaves no process behind, and the session
 * goes on.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QueryFailureIT {
    private HiveSession hive;
    private Path warehouse;

    @BeforeAll
    void createTables() throws Exception {
        Path root = HiveSession.HOME.resolve("hive-datampi-engine/target/it-failure");
        FileUtil.fullyDelete(root.toFile());
        Path sales = TestData.writeSales(root.resolve("data"), 3, 1000);
        warehouse = root.resolve("state");
        hive = new HiveSession(warehouse, Map.of(
                "hive.input.format", "org.apache.hadoop.hive.ql.io.HiveInputFormat",
                "hive.fetch.task.conversion", "none",
                "hive.datampi.heap", "768m"));
        hive.setEngine("mr");
        hive.createSalesText("sales_text", sales);
        hive.query("CREATE TABLE target (id INT, total DECIMAL(12,2)) STORED AS ORC");
        hive.query("INSERT INTO target VALUES (1, 1.50), (2, 2.50)");
        hive.setEngine("datampi");
    }

    @AfterAll
    void close() throws Exception {
        hive.close();
    }

    /** In the mapreduce shape: an O task that throws fails the query, naming rank, host, task and cause. */
    @Test
    void aUdfThatThrowsOnOneRowFailsTheQueryAndWritesNothing() throws Exception {
        hive.query("SET hive.datampi.plan=mapreduce");
        String error;
        try {
            error = hive.failure("INSERT OVERWRITE TABLE target SELECT id, amount FROM sales_text "
                    + "WHERE assert_true(id <> 1234) IS NULL").getMessage();
        } finally {
            hive.query("SET hive.datampi.plan=dag");
        }
        assertTrue(error.matches("(?s).*datampi: job failed on rank \\d+ \\(\\S+\\), O task \\d+: [^\n]*"
                + "ASSERT_TRUE\\(\\): assertion failed[^\n]*\n.*"), "rank, host, task and the UDF's error on one "
                + "line: " + error);
        assertTrue(error.matches("(?s).*\\S+:\\S+/rank-\\d+\\.log, last lines:\n\\| .*"),
                "the failing rank's log (host and path) and its last lines follow the cause: " + error);
        assertUnchangedAndHealthy();
    }

    /**
     * The same in the DAG shape (the default): a task of a map vertex, or of the reduce vertex behind the shuffle,
     * that throws fails the query, naming rank, task and cause.
     */
    @Test
    void aFailingTaskOfADagVertexFailsTheQueryAndWritesNothing() throws Exception {
        String error = hive.failure("INSERT OVERWRITE TABLE target SELECT id, amount FROM sales_text "
                + "WHERE assert_true(id <> 1234) IS NULL").getMessage();
        assertTrue(error.matches("(?s).*datampi: job failed on rank \\d+ \\(\\S+\\), vertex Map 1, task \\d+: "
                + "[^\n]*ASSERT_TRUE\\(\\): assertion failed[^\n]*\n.*"), "rank, host, vertex, task and the UDF's "
                + "error: " + error);
        // Regression: Tez's runtime leaves a failed task's thread interrupted, and the log tail was lost.
        assertTrue(error.matches("(?s).*\\S+:\\S+/rank-\\d+\\.log, last lines:\n\\| .*"),
                "the failing rank's log (host and path) and its last lines follow the cause: " + error);
        // A task of the reduce vertex, behind the shuffle.
        String reduceError = hive.failure("INSERT OVERWRITE TABLE target SELECT id, total FROM (SELECT id, "
                + "sum(amount) AS total FROM sales_text GROUP BY id) t WHERE assert_true(total < 0) IS NULL")
                .getMessage();
        assertTrue(reduceError.matches("(?s).*datampi: job failed on rank \\d+ \\(\\S+\\), vertex Reducer 2, "
                + "task \\d+: [^\n]*ASSERT_TRUE\\(\\): assertion failed[^\n]*\n.*"), "a reduce task's error: "
                + reduceError);
        assertUnchangedAndHealthy();
    }

    @Test
    void aCorruptOrcFileFailsTheQueryNamingTheFile() throws Exception {
        hive.query("CREATE TABLE broken STORED AS ORC AS SELECT * FROM sales_text");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(warehouse)) {
            files = walk.filter(p -> p.toString().contains("/broken/") && Files.isRegularFile(p)).toList();
        }
        Path file = files.stream().filter(p -> !p.getFileName().toString().startsWith(".")).findFirst()
                .orElseThrow(() -> new AssertionError("no ORC file among " + files + "\n" + hive.consoleText()));
        // Garble the column data but keep the file's tail (footer, postscript), so that split generation succeeds
        // and an O task meets the damage; drop the checksum file, which would otherwise catch it on the way in.
        byte[] bytes = Files.readAllBytes(file);
        for (int i = 3; i < bytes.length / 2; i++) {
            bytes[i] = (byte) (bytes[i] ^ 0x5A);
        }
        Files.write(file, bytes);
        Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));

        String error = hive.failure("INSERT OVERWRITE TABLE target SELECT id, amount FROM broken").getMessage();
        assertTrue(error.contains("datampi: job failed on rank") && error.contains(file.getFileName().toString()),
                error);
        assertUnchangedAndHealthy();
    }

    /**
     * Ranks that do not start a stage within hive.datampi.start.timeout fail it and are stopped: a launch that hangs
     * (MPI's daemons waiting for a host that cannot be reached) is not waited for without end. A second is less than
     * a new group needs here (mpirun, JVMs, MPI_Init, the job's set-up), so the deadline passes before the first O
     * task. (Another heap than the session's makes the stage start a new group in place of the warm one.)
     */
    @Test
    void ranksThatDoNotStartInTimeFailTheStageAndAreStopped() throws Exception {
        hive.query("SET hive.datampi.heap=700m");
        hive.query("SET hive.datampi.start.timeout=1");
        try {
            String error = hive.failure("INSERT OVERWRITE TABLE target SELECT id, amount FROM sales_text").getMessage();
            assertTrue(error.matches("(?s).*datampi: the ranks did not start job job_datampi\\S+ within 1 s "
                    + "\\(hive.datampi.start.timeout=1\\).*"), error);
        } finally {
            // (RESET would keep them: Hive resets a key to its value in a fresh HiveConf, and these have none.)
            hive.query("SET hive.datampi.start.timeout=120");
            hive.query("SET hive.datampi.heap=768m");
        }
        assertUnchangedAndHealthy();
    }

    /**
     * A task that hangs (here a row that sleeps a minute; in life a UDF that never returns) fails its stage at
     * hive.datampi.stage.timeout, naming the setting, and its ranks are stopped.
     */
    @Test
    void aStageThatRunsPastTheStageTimeoutFailsAndItsRanksAreStopped() throws Exception {
        hive.query("SET hive.datampi.stage.timeout=8");
        long start = System.nanoTime();
        try {
            String error = hive.failure("INSERT OVERWRITE TABLE target SELECT id, amount FROM sales_text WHERE "
                    + "reflect('java.lang.Thread', 'sleep', cast(60000 as bigint)) IS NULL").getMessage();
            assertTrue(error.matches("(?s).*datampi: job job_datampi\\S+ did not end within 8 s "
                    + "\\(hive.datampi.stage.timeout=8\\); its ranks were stopped.*"), error);
        } finally {
            hive.query("SET hive.datampi.stage.timeout=86400");
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertTrue(seconds < 45, "the query ended " + seconds + " s after it started, not after the sleeping row");
        assertUnchangedAndHealthy();
    }

    /**
     * A rank out of heap ends the query within seconds, naming the error, rather than leaving its peers waiting for
     * threads that died of it (ranks run with -XX:+ExitOnOutOfMemoryError; mpirun stops the others).
     */
    @Test
    void aRankOutOfHeapEndsTheQueryInSecondsNamingTheError() throws Exception {
        long start = System.nanoTime();
        // About 1 GB per row (repeat's result), beyond the ranks' 768 MB heap; from a column, so that Hive cannot
        // fold it on the client.
        String error = hive.failure("INSERT OVERWRITE TABLE target SELECT id, amount FROM sales_text "
                + "WHERE length(repeat(name, 150000000 + id)) > 0").getMessage();
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertTrue(error.contains("java.lang.OutOfMemoryError"), "the FAILED line names the error: " + error);
        assertTrue(seconds < 60, "the query ended " + seconds + " s after it started");
        assertUnchangedAndHealthy();
    }

    private void assertUnchangedAndHealthy() throws InterruptedException {
        // An error of the query's own (a UDF, corrupt input, out of heap, a deadline) is not worth another attempt.
        assertFalse(hive.consoleText().contains("runs again on a fresh group"), hive.consoleText());
        // First, before the next query starts ranks again: the failed job's ranks, warm or not, are gone.
        assertNoRankLeft();
        assertEquals(List.of("1\t1.50", "2\t2.50"), hive.query("SELECT * FROM target ORDER BY id"));
        assertEquals(List.of("3000"), hive.query("SELECT count(*) FROM sales_text"), "the session goes on");
    }

    private static void assertNoRankLeft() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            List<String> left = ProcessHandle.allProcesses().map(p -> p.info().commandLine().orElse(""))
                    .filter(line -> line.contains("org.datampi.runtime.CommonProcess")
                            || line.contains("mpirun") && line.contains("DataMPIHiveApplication"))
                    .toList();
            if (left.isEmpty()) {
                return;
            }
            Thread.sleep(200);
        }
        fail("ranks are left after the failed query");
    }
}
