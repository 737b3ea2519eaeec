package org.datampi.hive.it;

import static org.datampi.hive.it.QueryCorpus.sorted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The query corpus: every query runs on Hive's own MapReduce engine (mr, in-process) and on datampi in both plan
 * shapes (hive.datampi.plan: mapreduce, and dag with Hive's Tez plans) in the same session, and the results must be
 * equal: as multisets, or in order where the query orders. Writes go to a target per engine and shape, whose
 * contents are then compared the same way. The corpus itself is QueryCorpus.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QueryCorpusIT {
    private HiveSession hive;
    /** Hive on MR's answers by query, and the writes done on MR: each runs once, for both shapes. */
    private final Map<String, List<String>> mrAnswers = new HashMap<>();
    private final Set<String> writtenOnMr = new HashSet<>();

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

    private static final List<String> SHAPES = List.of("mapreduce", "dag");

    static Stream<Arguments> queries() {
        return SHAPES.stream().flatMap(shape -> QueryCorpus.queries().stream().map(query -> Arguments.of(shape, query)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("queries")
    void sameRowsOnDatampiAsOnMr(String shape, QueryCorpus.Query query) {
        assertSame(shape, query);
    }

    static Stream<Arguments> writes() {
        return SHAPES.stream().flatMap(shape -> QueryCorpus.writes().stream().map(write -> Arguments.of(shape, write)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("writes")
    void sameTableOnDatampiAsOnMr(String shape, QueryCorpus.Write write) {
        String target = "datampi_" + shape;
        if (writtenOnMr.add(write.name())) {
            runOn("mr", "mapreduce", write.statementsFor("mr"));
        }
        int consoleBefore = hive.consoleText().length();
        runOn("datampi", shape, write.statementsFor(target));
        assertTrue(hive.consoleText().substring(consoleBefore).contains("job_datampi"),
                "the write ran as a datampi job: " + write);
        assertDagStage(shape, consoleBefore, write.toString());
        List<String> mrChecks = write.checksFor("mr");
        List<String> datampiChecks = write.checksFor(target);
        for (int i = 0; i < mrChecks.size(); i++) {
            List<String> mr = sorted(hive.query(mrChecks.get(i)));
            assertFalse(mr.isEmpty(), "the write produced rows: " + mrChecks.get(i));
            assertEquals(mr, sorted(hive.query(datampiChecks.get(i))), datampiChecks.get(i));
        }
    }

    /** The ranks' classpath has no test classes: they must load the UDF from the jar the session added. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void aUdfFromAnAddedJarRunsInTheRanks(String shape) throws Exception {
        assertSame(shape, QueryCorpus.udfFromAddedJar(
                HiveSession.HOME.resolve("hive-datampi-engine/target/it-corpus/shout-udf-" + shape + ".jar")));
    }

    /** Hive ships the auxiliary jars (hive.aux.jars.path, and those RELOAD adds) with every job, as it does ADD JAR's. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void aUdfFromAnAuxiliaryJarRunsInTheRanks(String shape) throws Exception {
        assertSame(shape, QueryCorpus.udfFromReloadableAuxJar(
                HiveSession.HOME.resolve("hive-datampi-engine/target/it-corpus/aux-" + shape)));
    }

    /** The corpus's bucket map join is one in the DAG shape: Hive plans the custom edge, and the ranks run it. */
    @Test
    void theBucketMapJoinIsPlannedWithItsCustomEdge() {
        List<String> statements = QueryCorpus.BUCKET_MAP_JOIN.statements();
        List<String> plan = runOn("datampi", "dag", Stream.concat(statements.stream().limit(statements.size() - 1),
                Stream.of("EXPLAIN " + statements.get(statements.size() - 1))).toList());
        assertTrue(plan.stream().anyMatch(line -> line.contains("<- Map") && line.contains("(CUSTOM_EDGE)")),
                String.join("\n", plan));
        assertSame("dag", QueryCorpus.BUCKET_MAP_JOIN);
    }

    static List<String> shapes() {
        return SHAPES;
    }

    private void assertSame(String shape, QueryCorpus.Query query) {
        List<String> mr = mrAnswers.computeIfAbsent(query.name(), name -> runOn("mr", "mapreduce",
                query.statements()));
        int consoleBefore = hive.consoleText().length();
        List<String> datampi = runOn("datampi", shape, query.statements());
        assertTrue(hive.consoleText().substring(consoleBefore).contains("job_datampi"),
                "the query ran as a datampi job: " + query);
        assertDagStage(shape, consoleBefore, query.toString());
        assertFalse(mr.isEmpty(), "the query returns rows: " + query);
        if (query.ordered()) {
            assertEquals(mr, datampi, query.name());
        } else {
            assertEquals(sorted(mr), sorted(datampi), query.name());
        }
    }

    /** A DAG stage names its vertices on the console (DataMPIDagTask); a MapReduce-shaped one does not. */
    private void assertDagStage(String shape, int consoleBefore, String what) {
        String console = hive.consoleText().substring(consoleBefore);
        assertEquals(shape.equals("dag"), DAG_STAGE.matcher(console).find(), what + " ran in the " + shape
                + " shape:\n" + console);
    }

    private static final Pattern DAG_STAGE = Pattern.compile("job_datampi\\S+: Map \\d+ \\(");

    private List<String> runOn(String engine, String shape, List<String> statements) {
        hive.query("RESET");
        hive.setEngine(engine);
        hive.query("SET hive.datampi.plan=" + shape);
        List<String> rows = List.of();
        for (String statement : statements) {
            rows = hive.query(statement);
        }
        return rows;
    }
}
