package org.datampi.bench.harness;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** A DuckDB result as Hive prints rows: tab-separated, NULL as NULL, decimals in plain notation. */
public final class DuckDbRows {
    private DuckDbRows() {
    }

    public static List<String> read(ResultSet result) throws SQLException {
        List<String> rows = new ArrayList<>();
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
        return rows;
    }
}
