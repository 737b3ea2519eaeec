package org.datampi.bench.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hive.common.io.SessionStream;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.datampi.bench.harness.ResultRows;
import org.datampi.bench.tpch.TpchGenerator;
import org.datampi.bench.tpch.TpchOracle;
import org.datampi.bench.tpch.TpchQuery;
import org.datampi.hive.cli.HiveQlScript;
import org.datampi.hive.session.QuerySession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 22 TPC-H queries on the datampi engine in both plan shapes (hive.datampi.plan: mapreduce, dag), at scale 0.01,
 * over text and ORC tables in the DAG shape and ORC in the mapreduce shape, each checked against DuckDB running the same query text over the same generated files:
 * row counts and every text and integer value exactly, other numbers (sums, averages, ratios) within a relative 1e-6
 * or 0.01.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchAnswersIT {
    private static final double SCALE = 0.01;
    private static final Pattern DAG_STAGE = Pattern.compile("datampi: Stage-\\d+ job_datampi\\S+: Map \\d+ \\(");
    private static final Path HOME = Path.of(System.getProperty("datampi.home")).toAbsolutePath().normalize();

    private QuerySession hive;
    private ByteArrayOutputStream console;
    private TpchOracle duckdb;

    @BeforeAll
    void loadData() throws Exception {
        Path root = HOME.resolve("hive-datampi-benchmarks/target/it-tpch");
        FileUtil.fullyDelete(root.toFile());
        Path data = root.resolve("data");
        new TpchGenerator(SCALE, data, 3, new PrintStream(OutputStream.nullOutputStream())).generate();

        console = new ByteArrayOutputStream();
        SessionStream stream = new SessionStream(console, true, StandardCharsets.UTF_8.name());
        hive = QuerySession.start(root.resolve("state"), Map.of("hive.datampi.heap", "768m"), stream, stream);
        hive.execute("SET hivevar:DB=tpch_sf0_01_text");
        hive.execute("SET hivevar:DATA=" + data.toUri().toString().replaceAll("/$", ""));
        runScript(HOME.resolve("tpch-queries/ddl/text-tables.sql"));
        hive.execute("SET hivevar:SOURCE=tpch_sf0_01_text");
        hive.execute("SET hivevar:DB=tpch_sf0_01_orc");
        hive.execute("SET hivevar:FORMAT=ORC");
        runScript(HOME.resolve("tpch-queries/ddl/copy-tables.sql"));

        duckdb = TpchOracle.load(data);
    }

    @AfterAll
    void close() throws Exception {
        hive.close();
        duckdb.close();
    }

    /** The DAG shape over both formats; the mapreduce shape over ORC (QueryCorpusIT reads text in both shapes). */
    static Stream<Arguments> queries() {
        return Stream.of("mapreduce", "dag").flatMap(shape -> Stream.of("text", "orc")
                .filter(format -> shape.equals("dag") || format.equals("orc"))
                .flatMap(format -> IntStream.rangeClosed(1, 22).mapToObj(number -> Arguments.of(shape, format,
                        number))));
    }

    /** What bin/tpch-bench checks before it runs queries on a database rather than loading it again. */
    @Test
    void theLoadScriptsMarkTheirDatabasesCompleteAfterTheLastTable() throws Exception {
        for (String database : List.of("tpch_sf0_01_text", "tpch_sf0_01_orc")) {
            List<String> description = hive.execute("DESCRIBE DATABASE EXTENDED " + database);
            assertTrue(description.stream().anyMatch(row -> row.contains("datampi.tpch.loaded=complete")),
                    database + ": " + description);
        }
    }

    @ParameterizedTest(name = "{0} {1} Q{2}")
    @MethodSource("queries")
    void datampiAnswersAsDuckDbDoes(String shape, String format, int number) throws Exception {
        TpchQuery query = TpchQuery.load(HOME.resolve("tpch-queries"), number, SCALE);
        hive.execute("SET hive.execution.engine=datampi");
        hive.execute("SET hive.datampi.plan=" + shape);
        hive.execute("USE tpch_sf0_01_" + format);
        List<String> datampi = null;
        int consoleBefore = console.size();
        for (String statement : query.statements()) {
            try {
                List<String> rows = hive.execute(statement);
                if (query.isResult(statement)) {
                    datampi = rows;
                }
            } catch (CommandProcessorException e) {
                fail("Q" + number + " failed on datampi: " + e.getMessage() + "\n" + tail(console, consoleBefore));
            }
        }
        String ran = console.toString(StandardCharsets.UTF_8).substring(consoleBefore);
        assertTrue(ran.contains("job_datampi"), "Q" + number + " ran on datampi");
        // A DAG stage names its vertices (DataMPIDagTask); a MapReduce-shaped one does not.
        assertTrue(DAG_STAGE.matcher(ran).find() == shape.equals("dag"), "Q" + number + " ran in the " + shape
                + " shape:\n" + tail(console, consoleBefore));
        List<String> expected = duckdb.answer(query);
        List<String> differences = ResultRows.differences(expected, "DuckDB", datampi, "datampi", true);
        if (!differences.isEmpty()) {
            fail("Q" + number + " on " + format + " differs from DuckDB:\n" + String.join("\n", differences));
        }
    }

    private void runScript(Path script) throws Exception {
        for (String statement : HiveQlScript.parse(Files.readString(script)).all()) {
            hive.execute(statement);
        }
    }

    private static String tail(ByteArrayOutputStream console, int from) {
        String text = console.toString(StandardCharsets.UTF_8);
        return text.substring(Math.max(from, text.length() - 4000));
    }


}
