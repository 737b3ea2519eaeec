package org.datampi.bench.hs2;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** A query's rows as a JDBC client gets them: each row's columns as text joined by tabs, SQL NULL as "NULL". */
final class JdbcRows {
    private JdbcRows() {
    }

    static List<String> query(Statement statement, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<String> values = new ArrayList<>();
                for (int column = 1; column <= columns; column++) {
                    String value = result.getString(column);
                    values.add(value == null ? "NULL" : value);
                }
                rows.add(String.join("\t", values));
            }
        }
        return rows;
    }
}
