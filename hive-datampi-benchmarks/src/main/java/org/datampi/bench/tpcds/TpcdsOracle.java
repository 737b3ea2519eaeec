package org.datampi.bench.tpcds;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.datampi.bench.harness.DuckDbRows;


/**
 * The independent engine TPC-DS answers are checked against: DuckDB, in-process, over the files TpcdsGenerator
 * wrote, with the tables' columns as tpcds-queries/ddl/text-tables.sql declares them for Hive, running each query as
 * DuckDB ships it (tpcds-queries/duckdb/), not Hive's rewrite: a rewrite that changed a query's meaning shows as a
 * wrong answer.
 */
public final class TpcdsOracle implements AutoCloseable {
    private static final Pattern TABLE = Pattern.compile(
            "CREATE EXTERNAL TABLE (\\w+) \\((.*?)\\)\\s*ROW FORMAT", Pattern.DOTALL);

    private final Connection duckdb;
    private final Path queries;

    private TpcdsOracle(Connection duckdb, Path queries) {
        this.duckdb = duckdb;
        this.queries = queries;
    }

    /** DuckDB with the 24 tables read from data/TABLE/*.dat; home is the checkout (tpcds-queries/). */
    public static TpcdsOracle load(Path home, Path data) throws IOException, SQLException {
        String ddl = Files.readString(home.resolve("tpcds-queries/ddl/text-tables.sql"));
        Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement statement = duckdb.createStatement()) {
            // A division by zero is NULL, as in Hive and the SQL standard, not IEEE's Infinity or NaN (q12, q20 and
            // q98 divide by a sum that is 0 for some groups at small scales).
            statement.execute("SET ieee_floating_point_ops = false");
            Matcher table = TABLE.matcher(ddl);
            int tables = 0;
            while (table.find()) {
                // dsdgen's trailing '|' is one more, empty, column; no field is quoted.
                statement.execute("CREATE TABLE " + table.group(1) + " AS SELECT * EXCLUDE (dsdgen_end) FROM "
                        + "read_csv('" + data.resolve(table.group(1)) + "/*.dat', delim = '|', header = false, "
                        + "quote = '', escape = '', columns = " + columns(table.group(2)) + ")");
                tables++;
            }
            if (tables != 24) {
                throw new IllegalStateException("text-tables.sql declares " + tables + " tables, not 24");
            }
        }
        return new TpcdsOracle(duckdb, home.resolve("tpcds-queries/duckdb"));
    }

    /** The rows of each part of the query, in order, as DuckDB answers its own text of it. */
    public List<List<String>> answers(int number) throws IOException, SQLException {
        TpcdsQuery query = TpcdsQuery.load(queries, number);
        try (Statement statement = duckdb.createStatement()) {
            List<List<String>> answers = new ArrayList<>();
            for (TpcdsQuery.Part part : query.parts()) {
                try (ResultSet result = statement.executeQuery(part.sql())) {
                    answers.add(DuckDbRows.read(result));
                }
            }
            return answers;
        }
    }

    /** DuckDB's rows for any query over the 24 tables. */
    public List<String> rows(String sql) throws SQLException {
        try (Statement statement = duckdb.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            return DuckDbRows.read(result);
        }
    }

    /** Hive's column list as read_csv's columns struct, with DuckDB's names of the types. */
    private static String columns(String hiveColumns) {
        StringBuilder struct = new StringBuilder("{");
        for (String column : (hiveColumns + ", dsdgen_end STRING").split(",(?![^(]*\\))")) {
            String[] parts = column.strip().split("\\s+", 2);
            String type = parts[1].toUpperCase(Locale.ROOT);
            type = switch (type) {
                case "STRING" -> "VARCHAR";
                case "INT" -> "INTEGER";
                default -> type;
            };
            struct.append(struct.length() > 1 ? ", " : "").append('\'').append(parts[0]).append("': '")
                    .append(type).append('\'');
        }
        return struct.append('}').toString();
    }

    @Override
    public void close() throws SQLException {
        duckdb.close();
    }
}
