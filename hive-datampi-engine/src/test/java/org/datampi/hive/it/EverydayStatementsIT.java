package org.datampi.hive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The everyday statements (EverydayStatements), the file formats (FormatStatements) and transactional tables
 * (TransactionalStatements) in the session bin/hive-datampi runs, routed as its CLI routes them: on Hive on MR, then
 * on datampi in both plan shapes, with MR's outcome at every step; and a failed statement's transaction, and
 * compaction, on datampi.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EverydayStatementsIT {
    private static final Path ROOT = HiveSession.HOME.resolve("hive-datampi-engine/target/it-everyday");
    private static final Path DIRECTORIES = ROOT.resolve("directories");

    /** How long the compactor's Cleaner (every second here) may take to remove what a compaction replaced. */
    private static final long CLEANER_SECONDS = 60;

    private HiveSession hive;
    private final Map<String, List<EverydayStatements.Outcome>> onMr = new ConcurrentHashMap<>();

    @BeforeAll
    void createTables() throws Exception {
        FileUtil.fullyDelete(ROOT.toFile());
        Files.createDirectories(DIRECTORIES);
        FormatStatements.writeInputs(DIRECTORIES);
        // The compactor's Cleaner every second (Hive's default, 5 s): compactionKeepsTheRows waits for it.
        hive = new HiveSession(ROOT.resolve("state"), Map.of("hive.datampi.processes", "2",
                "hive.datampi.heap", "768m", "hive.compactor.cleaner.run.interval", "1000ms"));
        EverydayStatements.tables().forEach(hive::query);
    }

    @AfterAll
    void close() throws Exception {
        hive.close();
    }

    static Stream<Object[]> everydayRuns() {
        return EverydayStatements.datampiRuns(EverydayStatements.scripts(DIRECTORIES));
    }

    static Stream<Object[]> formatRuns() {
        return EverydayStatements.datampiRuns(FormatStatements.scripts(DIRECTORIES));
    }

    static Stream<Object[]> transactionalRuns() {
        return TransactionalStatements.datampiRuns();
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("everydayRuns")
    void everydayStatementsGiveTheOutcomesOfMr(EverydayStatements.Script script, EverydayStatements.Run run) {
        sameOutcomes(script, run);
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("formatRuns")
    void everyFormatGivesTheOutcomesOfMr(EverydayStatements.Script script, EverydayStatements.Run run) {
        sameOutcomes(script, run);
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("transactionalRuns")
    void transactionalTablesGiveTheOutcomesOfMr(EverydayStatements.Script script, EverydayStatements.Run run) {
        sameOutcomes(script, run);
    }

    /**
     * A statement that fails in its tasks aborts its transaction (the one transaction it opened shows as aborted), and
     * leaves no lock and no rows behind. In the default shape: the corpus's failing statements show the rest in both.
     */
    @Test
    void aFailedStatementAbortsItsTransaction() {
        EverydayStatements.Run run = new EverydayStatements.Run("datampi", "dag");
        transactionalSession(run);
        String table = "tx_abort_" + run.name();
        hive.query("CREATE TABLE " + table + " (k INT, v STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true')");
        hive.query("INSERT INTO " + table + " SELECT k, v FROM ev_orc");
        List<String> before = hive.query("SELECT k, v FROM " + table);
        Map<Long, String> transactions = transactions();
        int console = hive.consoleText().length();
        CommandProcessorException failure = hive.failure("UPDATE " + table + " SET v = 'never' WHERE "
                + "assert_true(k < 250) IS NULL");
        assertTrue(hive.consoleText().substring(console).contains("job_datampi"), "a datampi stage ran");
        Map<Long, String> opened = new TreeMap<>(transactions());
        opened.keySet().removeAll(transactions.keySet());
        assertEquals(List.of("ABORTED"), List.copyOf(opened.values()), "the transactions the UPDATE opened ("
                + failure.getMessage() + ")");
        assertEquals(QueryCorpus.sorted(before), QueryCorpus.sorted(hive.query("SELECT k, v FROM " + table)));
        assertEquals(List.of(), hive.query("SHOW LOCKS").stream().filter(row -> row.matches("^\\d+\t.*")).toList(),
                "locks left");
        hive.query("UPDATE " + table + " SET v = 'after' WHERE k < 3");
        assertEquals(List.of("3"), hive.query("SELECT count(*) FROM " + table + " WHERE v = 'after'"));
    }

    /**
     * Minor and major compaction (ALTER TABLE ... COMPACT ... AND WAIT, run by the compactor Worker of the session's
     * JVM, then its Cleaner) leave a full-ACID table's rows and an insert-only table's rows as they were. The
     * insert-only table's compaction queries run on datampi (the request's compactor.* properties; in the mapreduce
     * shape, as every query of the compactor's); Hive compacts full-ACID tables with a MapReduce job on every engine
     * but Tez. Once, in the default shape: the compactor's work does not depend on the session's shape.
     */
    @Test
    void compactionKeepsTheRows() {
        EverydayStatements.Run run = new EverydayStatements.Run("datampi", "dag");
        transactionalSession(run);
        String acid = "tx_compacted_" + run.name();
        hive.query("CREATE TABLE " + acid + " (k INT, v STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true')");
        hive.query("INSERT INTO " + acid + " SELECT k, v FROM ev_orc WHERE k < 150");
        hive.query("INSERT INTO " + acid + " SELECT k, v FROM ev_orc WHERE k >= 150");
        hive.query("UPDATE " + acid + " SET v = 'updated' WHERE k % 4 = 0");
        hive.query("DELETE FROM " + acid + " WHERE k % 9 = 0");
        String rows = "SELECT k, v FROM " + acid;
        List<String> before = QueryCorpus.sorted(hive.query(rows));
        for (String type : List.of("minor", "major")) {
            compact(acid, "COMPACT '" + type + "' AND WAIT");
            assertEquals(before, QueryCorpus.sorted(hive.query(rows)), type + " compaction of " + acid);
        }
        String insertOnly = "tx_mm_compacted_" + run.name();
        hive.query("CREATE TABLE " + insertOnly + " (k INT, v STRING) STORED AS ORC TBLPROPERTIES "
                + "('transactional'='true', 'transactional_properties'='insert_only')");
        for (int i = 0; i < 3; i++) {
            hive.query("INSERT INTO " + insertOnly + " SELECT k + " + i + ", v FROM ev_orc WHERE k % 3 = " + i);
        }
        List<String> inserted = QueryCorpus.sorted(hive.query("SELECT k, v FROM " + insertOnly));
        compact(insertOnly, "COMPACT 'major' AND WAIT WITH OVERWRITE TBLPROPERTIES ("
                + "'compactor.hive.execution.engine'='" + run.engine() + "')");
        assertEquals(inserted, QueryCorpus.sorted(hive.query("SELECT k, v FROM " + insertOnly)),
                "major compaction of " + insertOnly);
    }

    /**
     * Runs an ALTER TABLE TABLE COMPACT ... AND WAIT; fails unless the compaction succeeded and the compactor's
     * Cleaner then removed the files it replaced (Hive refuses the next compaction of a table until then).
     */
    private void compact(String table, String statement) {
        int console = hive.consoleText().length();
        hive.query("ALTER TABLE " + table + " " + statement);
        String printed = hive.consoleText().substring(console);
        assertTrue(printed.matches("(?s).*finished with status: (ready for cleaning|succeeded).*"), statement + ":\n"
                + printed);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLEANER_SECONDS);
        while (true) {
            List<String> compactions = hive.query("SHOW COMPACTIONS").stream()
                    .filter(row -> List.of(row.split("\t")).contains(table)).toList();
            if (compactions.stream().noneMatch(row -> row.contains("ready for cleaning"))) {
                assertTrue(compactions.stream().allMatch(row -> row.contains("succeeded")), compactions.toString());
                return;
            }
            assertTrue(System.nanoTime() < deadline, "the Cleaner did not clean " + table + " in " + CLEANER_SECONDS
                    + " s: " + compactions);
            sleep(1000);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Resets the session to RUN's engine and shape under DbTxnManager. */
    private void transactionalSession(EverydayStatements.Run run) {
        // The engine before the transaction manager: RESET gives the session Hive's default engine (tez: this JVM
        // has no hive-site.xml), and the first statement under DbTxnManager starts the compactor with the session's.
        hive.query("RESET");
        hive.query("SET hive.execution.engine=" + run.engine());
        hive.query("SET hive.datampi.plan=" + run.shape());
        TransactionalStatements.SESSION.forEach(hive::query);
    }

    /** SHOW TRANSACTIONS: each transaction's state by its id. */
    private Map<Long, String> transactions() {
        Map<Long, String> states = new TreeMap<>();
        for (String row : hive.query("SHOW TRANSACTIONS")) {
            String[] fields = row.trim().split("\\s+");
            if (fields.length > 1 && fields[0].matches("\\d+")) {
                states.put(Long.parseLong(fields[0]), fields[1]);
            }
        }
        return states;
    }

    private void sameOutcomes(EverydayStatements.Script script, EverydayStatements.Run run) {
        List<EverydayStatements.Outcome> mr = onMr.computeIfAbsent(script.name(), name ->
                EverydayStatements.runAndCompare(hive::outcome, script, EverydayStatements.RUNS.get(0), null));
        EverydayStatements.runAndCompare(hive::outcome, script, run, mr);
    }
}
