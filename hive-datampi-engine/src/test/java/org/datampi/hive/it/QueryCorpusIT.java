package org.datampi.hive.it;

import static org.datampi.hive.it.QueryCorpus.sorted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The query corpus: every query runs on Hive's own MapReduce engine (mr, in-process) and on datampi in the same
 * session, and the results must be equal: as multisets, or in order where the query orders. Writes go to a target
 * per engine, whose contents are then compared the same way. The corpus itself is QueryCorpus.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QueryCorpusIT {
    private HiveSession hive;

    @BeforeAll
    void createTables() throws Exception {
        Path root = HiveSession.HOME.resolve("hive-datampi-engine/target/it-corpus");
        FileUtil.fullyDelete(root.toFile());
        Path data = Files.createDirectories(root.resolve("data"));
        QueryCorpus.writeData(data);
        Map<String, String> settings = new HashMap<>(QueryCorpus.SETTINGS);
        settings.put("hive.datampi.processes", "2");
        settings.put("hive.datampi.heap", "768m");
        hive = new HiveSession(root.resolve("state"), settings);
        hive.setEngine("mr");
        QueryCorpus.tables(data.toUri()).forEach(hive::query);
    }

    @AfterAll
    void close() throws Exception {
        hive.close();
    }

    static List<QueryCorpus.Query> queries() {
        return QueryCorpus.queries();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void sameRowsOnDatampiAsOnMr(QueryCorpus.Query query) {
        assertSame(query);
    }

    static List<QueryCorpus.Write> writes() {
        return QueryCorpus.writes();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("writes")
    void sameTableOnDatampiAsOnMr(QueryCorpus.Write write) {
        int consoleBefore = 0;
        for (String engine : List.of("mr", "datampi")) {
            consoleBefore = hive.consoleText().length();
            hive.setEngine(engine);
            write.statementsFor(engine).forEach(hive::query);
        }
        assertTrue(hive.consoleText().substring(consoleBefore).contains("job_datampi"),
                "the write ran as a datampi job: " + write);
        List<String> mrChecks = write.checksFor("mr");
        List<String> datampiChecks = write.checksFor("datampi");
        for (int i = 0; i < mrChecks.size(); i++) {
            List<String> mr = sorted(hive.query(mrChecks.get(i)));
            assertFalse(mr.isEmpty(), "the write produced rows: " + mrChecks.get(i));
            assertEquals(mr, sorted(hive.query(datampiChecks.get(i))), datampiChecks.get(i));
        }
    }

    /** The ranks' classpath has no test classes: they must load the UDF from the jar the session added. */
    @Test
    void aUdfFromAnAddedJarRunsInTheRanks() throws Exception {
        assertSame(QueryCorpus.udfFromAddedJar(
                HiveSession.HOME.resolve("hive-datampi-engine/target/it-corpus/shout-udf.jar")));
    }

    private void assertSame(QueryCorpus.Query query) {
        List<String> mr = runOn("mr", query.statements());
        int consoleBefore = hive.consoleText().length();
        List<String> datampi = runOn("datampi", query.statements());
        assertTrue(hive.consoleText().substring(consoleBefore).contains("job_datampi"),
                "the query ran as a datampi job: " + query);
        assertFalse(mr.isEmpty(), "the query returns rows: " + query);
        if (query.ordered()) {
            assertEquals(mr, datampi, query.name());
        } else {
            assertEquals(sorted(mr), sorted(datampi), query.name());
        }
    }

    private List<String> runOn(String engine, List<String> statements) {
        hive.query("RESET");
        hive.setEngine(engine);
        List<String> rows = List.of();
        for (String statement : statements) {
            rows = hive.query(statement);
        }
        return rows;
    }
}
