package org.datampi.bench.tpch;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.datampi.bench.harness.DuckDbRows;

/**
 * The independent engine TPC-H answers are checked against: DuckDB, in-process, over the same files TpchGenerator
 * wrote, running the same query text. Rows come back as Hive prints them (tab-separated, NULL as NULL, decimals in
 * plain notation).
 */
public final class TpchOracle implements AutoCloseable {
    private static final Map<String, String> COLUMNS = Map.of(
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

    private final Connection duckdb;

    private TpchOracle(Connection duckdb) {
        this.duckdb = requireNonNull(duckdb, "duckdb is null");
    }

    /** DuckDB with the eight tables read from data/TABLE/*.tbl.*. */
    public static TpchOracle load(Path data) throws SQLException {
        Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement statement = duckdb.createStatement()) {
            for (Map.Entry<String, String> table : COLUMNS.entrySet()) {
                // dbgen's trailing '|' is one more, empty, column.
                statement.execute("CREATE TABLE " + table.getKey() + " AS SELECT * EXCLUDE (dbgen_end) FROM read_csv('"
                        + data.resolve(table.getKey()) + "/*.tbl.*', delim = '|', header = false, columns = "
                        + duckdbColumns(table.getValue() + ", dbgen_end VARCHAR") + ")");
            }
        } catch (SQLException | RuntimeException e) {
            duckdb.close();
            throw e;
        }
        return new TpchOracle(duckdb);
    }

    /** The rows of the query's result statement. */
    public List<String> answer(TpchQuery query) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement statement = duckdb.createStatement()) {
            for (String sql : query.statements()) {
                if (!query.isResult(sql)) {
                    statement.execute(sql);
                    continue;
                }
                try (ResultSet result = statement.executeQuery(sql)) {
                    rows.addAll(DuckDbRows.read(result));
                }
            }
        }
        return rows;
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

    @Override
    public void close() throws SQLException {
        duckdb.close();
    }
}
