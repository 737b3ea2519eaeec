package org.datampi.hive.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** On a Derby database of its own, Derby's own refresh of statistics off: what is refreshed when. */
class DerbyIndexStatisticsTest {
    @TempDir
    Path dir;

    /**
     * A table loaded in steps, as the metastore's PARTITIONS by a partitioned load: refreshed when no count is
     * recorded and when it grew by more than a tenth, and then Derby's statistics hold its rows.
     */
    @Test
    void aTableIsRefreshedWhenItsRowsMovedByMoreThanATenth() throws Exception {
        System.setProperty("derby.stream.error.file", dir.resolve("derby.log").toString());
        try (Connection connection = DriverManager.getConnection("jdbc:derby:" + dir.resolve("db") + ";create=true")) {
            try (Statement statement = connection.createStatement()) {
                // Derby's daemon would refresh them too, when a statement compiled finds twice the rows recorded.
                statement.execute("CALL SYSCS_UTIL.SYSCS_SET_DATABASE_PROPERTY('derby.storage.indexStats.auto', "
                        + "'false')");
                statement.execute("CREATE TABLE \"PARTS\" (\"ID\" BIGINT NOT NULL PRIMARY KEY, "
                        + "\"NAME\" VARCHAR(767) NOT NULL, \"TBL\" BIGINT NOT NULL)");
                statement.execute("CREATE UNIQUE INDEX \"UNIQUEPART\" ON \"PARTS\" (\"NAME\", \"TBL\")");
            }
            Path record = dir.resolve("record");
            DerbyIndexStatistics statistics = new DerbyIndexStatistics(List.of("PARTS"), record);
            insert(connection, 0, 6_000);

            assertEquals(List.of("PARTS"), statistics.refreshStale(connection), "no count recorded: refreshed");
            assertEquals(6_000, statisticsRows(connection, "UNIQUEPART"));
            insert(connection, 6_000, 6_500);
            assertEquals(List.of(), statistics.refreshStale(connection), "8% more rows: left");
            assertEquals(6_000, statisticsRows(connection, "UNIQUEPART"));
            insert(connection, 6_500, 12_000);
            assertEquals(List.of("PARTS"), statistics.refreshStale(connection), "twice the rows: refreshed");
            assertEquals(12_000, statisticsRows(connection, "UNIQUEPART"));
            assertEquals(List.of(), statistics.refreshStale(connection), "nothing changed since");
            assertEquals("PARTS 12000", Files.readString(record).trim());
        }
    }

    private static void insert(Connection connection, int from, int to) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO \"PARTS\" VALUES (?, ?, ?)")) {
            for (int id = from; id < to; id++) {
                insert.setLong(1, id);
                insert.setString(2, "d_date_sk=" + (2_450_000 + id % 2_000));
                insert.setLong(3, id / 2_000);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /** The rows Derby's statistics of the index record (its catalog shows them as "numunique= U numrows= R"). */
    private static long statisticsRows(Connection connection, String index) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet statistics = statement.executeQuery("SELECT CAST(s.STATISTICS AS VARCHAR(200)) "
                        + "FROM SYS.SYSSTATISTICS s JOIN SYS.SYSCONGLOMERATES c ON s.REFERENCEID = c.CONGLOMERATEID "
                        + "WHERE c.CONGLOMERATENAME = '" + index + "'")) {
            if (!statistics.next()) {
                return -1;
            }
            Matcher rows = Pattern.compile("numrows= (\\d+)").matcher(statistics.getString(1));
            return rows.find() ? Long.parseLong(rows.group(1)) : -1;
        }
    }
}
