package org.datampi.bench.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hive.common.io.SessionStream;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.datampi.bench.tpch.TpchGenerator;
import org.datampi.bench.tpch.TpchQuery;
import org.datampi.hive.cli.HiveQlScript;
import org.datampi.hive.session.QuerySession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 22 TPC-H queries on the datampi engine, at scale 0.01, over text and ORC tables, each checked against DuckDB
 * running the same query text over the same generated files: row counts and every text and integer value exactly,
 * other numbers (sums, averages, ratios) within a relative 1e-6 or 0.01.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchAnswersIT {
    private static final double SCALE = 0.01;
    private static final Path HOME = Path.of(System.getProperty("datampi.home")).toAbsolutePath().normalize();
    private static final Map<String, String> DUCKDB_COLUMNS = Map.of(
            "nation", "n_nationkey INTEGER, n_name VARCHAR, n_regionkey INTEGER, n_comment VARCHAR",
            "region", "r_regionkey INTEGER, r_name VARCHAR, r_comment VARCHAR",
            "part", "p_partkey BIGINT, p_name VARCHAR, p_mfgr VARCHAR, p_brand VARCHAR, p_type VARCHAR, p_size INTEGER, "
                    + "p_container VARCHAR, p_retailprice DECIMAL(15,2), p_comment VARCHAR",
            "supplier", "s_suppkey BIGINT, s_name VARCHAR, s_address VARCHAR, s_nationkey INTEGER, s_phone VARCHAR, "
                    + "s_acctbal DECIMAL(15,2), s_comment VARCHAR",
            "partsupp", "ps_partkey BIGINT, ps_suppkey BIGINT, ps_availqty INTEGER, ps_supplycost DECIMAL(15,2), "
                    + "ps_comment VARCHAR",
            "customer", "c_custkey BIGINT, c_name VARCHAR, c_address VARCHAR, c_nationkey INTEGER, c_phone VARCHAR, "
                    + "c_acctbal DECIMAL(15,2), c_mktsegment VARCHAR, c_comment VARCHAR",
            "orders", "o_orderkey BIGINT, o_custkey BIGINT, o_orderstatus VARCHAR, o_totalprice DECIMAL(15,2), "
                    + "o_orderdate DATE, o_orderpriority VARCHAR, o_clerk VARCHAR, o_shippriority INTEGER, "
                    + "o_comment VARCHAR",
            "lineitem", "l_orderkey BIGINT, l_partkey BIGINT, l_suppkey BIGINT, l_linenumber INTEGER, "
                    + "l_quantity DECIMAL(15,2), l_extendedprice DECIMAL(15,2), l_discount DECIMAL(15,2), "
                    + "l_tax DECIMAL(15,2), l_returnflag VARCHAR, l_linestatus VARCHAR, l_shipdate DATE, "
                    + "l_commitdate DATE, l_receiptdate DATE, l_shipinstruct VARCHAR, l_shipmode VARCHAR, "
                    + "l_comment VARCHAR");

    private QuerySession hive;
    private ByteArrayOutputStream console;
    private Connection duckdb;

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

        duckdb = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement statement = duckdb.createStatement()) {
            for (Map.Entry<String, String> table : DUCKDB_COLUMNS.entrySet()) {
                // dbgen's trailing '|' is one more, empty, column.
                statement.execute("CREATE TABLE " + table.getKey() + " AS SELECT * EXCLUDE (dbgen_end) FROM read_csv('"
                        + data.resolve(table.getKey()) + "/*.tbl.*', delim = '|', header = false, columns = "
                        + duckdbColumns(table.getValue() + ", dbgen_end VARCHAR") + ")");
            }
        }
    }

    @AfterAll
    void close() throws Exception {
        hive.close();
        duckdb.close();
    }

    static Stream<Arguments> queries() {
        return Stream.of("text", "orc").flatMap(format -> IntStream.rangeClosed(1, 22)
                .mapToObj(number -> Arguments.of(format, number)));
    }

    @ParameterizedTest(name = "{0} Q{1}")
    @MethodSource("queries")
    void datampiAnswersAsDuckDbDoes(String format, int number) throws Exception {
        TpchQuery query = TpchQuery.load(HOME.resolve("tpch-queries"), number, SCALE);
        hive.execute("SET hive.execution.engine=datampi");
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
        assertTrue(console.toString(StandardCharsets.UTF_8).substring(consoleBefore).contains("job_datampi"),
                "Q" + number + " ran on datampi");
        List<String> expected = duckdb(query);
        List<String> differences = compare(expected, datampi);
        if (!differences.isEmpty()) {
            fail("Q" + number + " on " + format + " differs from DuckDB:\n" + String.join("\n", differences));
        }
    }

    private List<String> duckdb(TpchQuery query) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Statement statement = duckdb.createStatement()) {
            for (String sql : query.statements()) {
                if (!query.isResult(sql)) {
                    statement.execute(sql);
                    continue;
                }
                try (ResultSet result = statement.executeQuery(sql)) {
                    int columns = result.getMetaData().getColumnCount();
                    while (result.next()) {
                        List<String> fields = new ArrayList<>();
                        for (int c = 1; c <= columns; c++) {
                            Object value = result.getObject(c);
                            fields.add(value == null ? "NULL"
                                    : value instanceof BigDecimal decimal ? decimal.toPlainString() : value.toString());
                        }
                        rows.add(String.join("\t", fields));
                    }
                }
            }
        }
        return rows;
    }

    /** The differing rows, in order; empty when the results agree. */
    static List<String> compare(List<String> expected, List<String> actual) {
        List<String> differences = new ArrayList<>();
        if (expected.size() != actual.size()) {
            differences.add("rows: DuckDB " + expected.size() + ", datampi " + actual.size());
        }
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            if (!ResultRows.sameRow(expected.get(i), actual.get(i), TpchAnswersIT::sameValue)) {
                differences.add("row " + (i + 1) + ":\n  DuckDB:  " + expected.get(i) + "\n  datampi: " + actual.get(i));
            }
        }
        return differences;
    }

    private static boolean sameValue(String expected, String actual) {
        if (expected.equals(actual)) {
            return true;
        }
        BigDecimal e = number(expected);
        BigDecimal a = number(actual);
        if (e == null || a == null) {
            return false;
        }
        if (e.stripTrailingZeros().scale() <= 0 && a.stripTrailingZeros().scale() <= 0) {
            return e.compareTo(a) == 0;
        }
        BigDecimal difference = e.subtract(a).abs();
        return difference.compareTo(new BigDecimal("0.01")) <= 0
                || difference.compareTo(e.abs().multiply(new BigDecimal("1e-6"))) <= 0;
    }

    private static BigDecimal number(String text) {
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private void runScript(Path script) throws Exception {
        for (String statement : HiveQlScript.parse(Files.readString(script)).all()) {
            hive.execute(statement);
        }
    }

    private static String duckdbColumns(String columns) {
        StringBuilder struct = new StringBuilder("{");
        for (String column : columns.split(",(?![^(]*\\))")) {
            String[] parts = column.trim().split("\\s+", 2);
            struct.append(struct.length() > 1 ? ", " : "").append('\'').append(parts[0]).append("': '")
                    .append(parts[1]).append('\'');
        }
        return struct.append('}').toString();
    }

    private static String tail(ByteArrayOutputStream console, int from) {
        String text = console.toString(StandardCharsets.UTF_8);
        return text.substring(Math.max(from, text.length() - 4000));
    }


}
