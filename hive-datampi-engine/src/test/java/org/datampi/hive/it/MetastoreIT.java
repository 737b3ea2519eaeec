package org.datampi.hive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * bin/metastore: a standalone Hive Metastore (Thrift) over a PostgreSQL cluster of its own, started by the script,
 * used by a session in this JVM and by a bin/hive-datampi process at once (hive.metastore.uris), then stopped. What
 * the sessions write is held against Hive on MR's outcome over the same metastore, and read from PostgreSQL itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MetastoreIT {
    private static final Path ROOT = HiveSession.HOME.resolve("hive-datampi-engine/target/it-metastore");
    private static final Path STATE = ROOT.resolve("state");

    private String uris;
    private int databasePort;
    private HiveSession hive;

    /** What a bin/metastore command printed and how it ended. */
    private record Result(int exit, String output) {
    }

    @BeforeAll
    void startMetastore() throws Exception {
        if (Files.exists(STATE.resolve("metastore"))) {
            // An earlier run's, if it was not stopped.
            metastore("stop");
        }
        FileUtil.fullyDelete(ROOT.toFile());
        Files.createDirectories(STATE);
        int port = freePort();
        databasePort = freePort();
        Result started = metastore("start", "--port", Integer.toString(port), "--database-port",
                Integer.toString(databasePort));
        assertEquals(0, started.exit(), started.output());
        uris = "thrift://127.0.0.1:" + port;
        assertTrue(started.output().contains("hive.metastore.uris=" + uris), started.output());
        hive = new HiveSession(STATE, Map.of("hive.metastore.uris", uris, "hive.datampi.processes", "2",
                "hive.datampi.heap", "768m"));
        // The tables the transactional script reads.
        EverydayStatements.tables().stream().filter(statement -> !statement.startsWith("CREATE")
                || statement.startsWith("CREATE TABLE ev_orc ") || statement.startsWith("CREATE TABLE ev_text "))
                .filter(statement -> !statement.startsWith("INSERT")).forEach(hive::query);
    }

    @AfterAll
    void stopMetastore() throws Exception {
        if (hive != null) {
            hive.close();
        }
        Result stopped = metastore("stop");
        assertEquals(0, stopped.exit(), stopped.output());
        assertTrue(stopped.output().contains("stopped the Hive Metastore"), stopped.output());
        assertTrue(stopped.output().contains("stopped PostgreSQL"), stopped.output());
        Result status = metastore("status");
        assertEquals(3, status.exit(), status.output());
        assertTrue(status.output().contains("Hive Metastore not running"), status.output());
    }

    @Test
    void aSecondStartSaysItRunsAndStatusNamesBoth() throws Exception {
        Result again = metastore("start");
        assertEquals(0, again.exit(), again.output());
        assertTrue(again.output().contains("already running"), again.output());
        Result status = metastore("status");
        assertEquals(0, status.exit(), status.output());
        assertTrue(status.output().contains("hive.metastore.uris=" + uris), status.output());
        assertTrue(status.output().contains("PostgreSQL running on 127.0.0.1:" + databasePort), status.output());
        Result wrong = metastore("restart");
        assertEquals(2, wrong.exit(), wrong.output());
        assertEquals("metastore: expected start, stop or status, got 'restart'", wrong.output().strip());
    }

    /** The tables live in PostgreSQL, in Hive's schema: none in a Derby database of the state directory. */
    @Test
    void theTablesAreInPostgresql() throws Exception {
        List<String> tables = postgres("SELECT \"TBL_NAME\" FROM \"TBLS\" ORDER BY 1");
        assertTrue(tables.containsAll(List.of("ev_orc", "ev_text")), tables.toString());
        assertEquals(List.of("4.1.0"), postgres("SELECT \"SCHEMA_VERSION\" FROM \"VERSION\""));
        assertFalse(Files.exists(STATE.resolve("metastore_db")), "a Derby metastore was created");
    }

    /**
     * The full-ACID script (writes, reads, SHOW LOCKS after each) through the metastore, on datampi, each step against
     * mr's: transactions, locks and write ids are the metastore's.
     */
    @Test
    void transactionalStatementsThroughItGiveTheOutcomesOfMr() {
        EverydayStatements.Script script = TransactionalStatements.scripts().get(0);
        List<EverydayStatements.Outcome> mr = EverydayStatements.runAndCompare(hive::outcome, script,
                EverydayStatements.RUNS.get(0), null);
        EverydayStatements.runAndCompare(hive::outcome, script, new EverydayStatements.Run("datampi", "dag"), mr);
    }

    /** A second session, in a bin/hive-datampi process, sees what this one wrote, row for row. */
    @Test
    void aSecondSessionSharesIt() throws Exception {
        // RESET gives this JVM (no hive-site.xml) Hive's default engine: datampi is set after it.
        hive.query("RESET");
        hive.setEngine("datampi");
        hive.query("CREATE TABLE shared_by_two STORED AS ORC AS SELECT k, v FROM ev_orc WHERE k % 10 = 0");
        List<String> here = hive.query("SELECT v, count(*), sum(k) FROM shared_by_two GROUP BY v ORDER BY v");
        HiveCli other = HiveCli.startWith(ROOT, "second-session", "--hiveconf", "hive.metastore.uris=" + uris,
                "-e", "SELECT 'rows', v, count(*), sum(k) FROM shared_by_two GROUP BY v ORDER BY v");
        assertEquals(0, other.awaitExit(), other.output());
        assertEquals(here, HiveCli.labelledRows(other.output(), "rows"));
        assertTrue(other.output().contains("job_datampi"), "a datampi stage ran in the second session");
    }

    /**
     * PostgreSQL stopped under a running metastore: a statement fails within a minute with an error naming the
     * metastore's database (Hive alone answers "Table not found"), and bin/metastore start brings it back, after
     * which the table reads as before.
     */
    @Test
    void aLostDatabaseFailsAStatementNamingItAndStartBringsItBack() throws Exception {
        hive.setEngine("datampi");
        String count = "SELECT count(*), sum(k) FROM ev_text";
        List<String> before = hive.query(count);
        // PostgreSQL's fast shutdown (SIGINT), as pg_ctl stop does it: a smart one would wait for the pool's
        // connections to close.
        signal("INT", Long.parseLong(Files.readAllLines(STATE.resolve("metastore/postgres/postmaster.pid")).get(0)
                .strip()));
        long start = System.nanoTime();
        EverydayStatements.Outcome lost = hive.outcome(count);
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertTrue(lost.error() != null && lost.error().contains("The Hive Metastore's database jdbc:postgresql://"
                + "127.0.0.1:" + databasePort + "/metastore cannot be reached"), String.valueOf(lost));
        assertTrue(seconds < 60, "the statement failed after " + seconds + " s");

        Result restarted = metastore("start");
        assertEquals(0, restarted.exit(), restarted.output());
        assertTrue(restarted.output().contains("started PostgreSQL again"), restarted.output());
        assertEquals(before, hive.query(count));
    }

    /**
     * The metastore killed while an INSERT into a transactional table runs its datampi stage: the statement fails
     * naming the metastore, nothing it wrote is visible once bin/metastore start has started another, its
     * transaction is not committed, and the next INSERT commits.
     */
    @Test
    void aMetastoreKilledDuringAnInsertLeavesTheTableAsItWas() throws Exception {
        hive.setEngine("datampi");
        TransactionalStatements.SESSION.forEach(hive::query);
        hive.query("CREATE TABLE killed_insert (k INT, v STRING) STORED AS ORC "
                + "TBLPROPERTIES ('transactional'='true')");
        String read = "SELECT count(*), coalesce(sum(k), 0) FROM killed_insert";
        // Each of ev_text's rows k < 40 sleeps 300 ms in the stage's one O task: some 12 s of stage.
        HiveCli insert = HiveCli.startWith(ROOT, "killed-insert", "--hiveconf", "hive.metastore.uris=" + uris,
                "-e", TransactionalStatements.SESSION_SCRIPT + "INSERT INTO killed_insert SELECT k, reflect("
                        + "'java.lang.Thread', 'sleep', cast(300 + k - k AS BIGINT)) FROM ev_text WHERE k < 40");
        insert.awaitStageRanks();
        ProcessHandle metastore = ProcessHandle.of(Long.parseLong(Files.readString(
                STATE.resolve("metastore/metastore.pid")).strip())).orElseThrow();
        metastore.destroyForcibly();
        metastore.onExit().get(30, TimeUnit.SECONDS);
        assertTrue(insert.awaitExit() != 0, insert.output());
        assertTrue(insert.output().contains("Could not connect to meta store"), insert.output());

        Result restarted = metastore("start");
        assertEquals(0, restarted.exit(), restarted.output());
        assertEquals(List.of("0\t0"), hive.query(read));
        // The killed statement's transaction stays open, holding its lock, until Hive's housekeeping aborts it
        // (hive.txn.timeout, 300 s, after its last heartbeat; this test is quicker): never committed. SHOW LOCKS: id, database, table, partition,
        // state, blocked by, type, transaction; SHOW TRANSACTIONS: id, state.
        List<String> transactions = hive.query("SHOW LOCKS").stream().map(line -> line.split("\t"))
                .filter(lock -> lock.length > 7 && lock[2].strip().equals("killed_insert"))
                .map(lock -> lock[7].strip()).distinct().toList();
        assertEquals(1, transactions.size(), "the killed INSERT's lock: " + transactions);
        List<String> states = hive.query("SHOW TRANSACTIONS").stream().map(line -> line.split("\t"))
                .filter(row -> row[0].strip().equals(transactions.get(0))).map(row -> row[1].strip()).toList();
        assertEquals(List.of("OPEN"), states, "transaction " + transactions.get(0));
        hive.query("INSERT INTO killed_insert SELECT k, v FROM ev_text WHERE k < 40");
        assertEquals(hive.query("SELECT count(*), coalesce(sum(k), 0) FROM ev_text WHERE k < 40"), hive.query(read));
    }

    /** Sends SIGNAL to the process PID (one this test's user may signal). */
    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
        assertEquals(0, kill.waitFor(), new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    private static Result metastore(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(HiveSession.HOME.resolve("bin/metastore").toString()));
        command.addAll(List.of(arguments));
        command.addAll(List.of("--warehouse", STATE.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(6, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            fail("bin/metastore " + String.join(" ", arguments) + " did not end");
        }
        return new Result(process.waitFor(), new String(output, StandardCharsets.UTF_8));
    }

    /** The rows of QUERY on the metastore's PostgreSQL database, as its owner reads them (psql). */
    private List<String> postgres(String query) throws IOException, InterruptedException {
        ProcessBuilder psql = new ProcessBuilder("psql", "-X", "-tA", "-h", "127.0.0.1", "-p",
                Integer.toString(databasePort), "-U", "hive", "-d", "metastore", "-c", query);
        psql.environment().put("PGPASSWORD",
                Files.readString(STATE.resolve("metastore/password"), StandardCharsets.UTF_8).strip());
        Process process = psql.redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), output);
        return output.lines().filter(line -> !line.isBlank()).toList();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
