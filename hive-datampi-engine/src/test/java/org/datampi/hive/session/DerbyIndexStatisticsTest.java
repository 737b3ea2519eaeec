package org.datampi.hive.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** On a Derby database of its own, Derby's own refresh of statistics off: what is refreshed when. */
class DerbyIndexStatisticsTest {
    private static final List<String> DERBY_PROPERTIES =
            List.of("derby.storage.indexStats.auto", "derby.stream.error.file");

    private final Map<String, String> before = new HashMap<>();

    @TempDir
    Path dir;

    /**
     * Derby reads these as it boots a database: its daemon would refresh the statistics too, when a statement compiled
     * finds many more rows than recorded; its log goes to this test's directory rather than the working directory.
     */
    @BeforeEach
    void derbyProperties() {
        DERBY_PROPERTIES.forEach(key -> before.put(key, System.getProperty(key)));
        System.setProperty("derby.storage.indexStats.auto", "false");
        System.setProperty("derby.stream.error.file", dir.resolve("derby.log").toString());
    }

    @AfterEach
    void restoreDerbyProperties() {
        before.forEach((key, value) -> {
            if (value == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, value);
            }
        });
    }

    /**
     * A table loaded in steps, as the metastore's PARTITIONS by a partitioned load: refreshed when no count is
     * recorded and when it grew by more than a tenth, and then Derby's statistics hold its rows.
     */
    @Test
    void aTableIsRefreshedWhenItsRowsMovedByMoreThanATenth() throws Exception {
        String url = "jdbc:derby:" + dir.resolve("db");
        try (Connection connection = DriverManager.getConnection(url + ";create=true")) {
            try (Statement statement = connection.createStatement()) {
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
        } finally {
            shutDown(url);
        }
    }

    /** A table the database does not have (another Hive version's metastore) is left out, not an error. */
    @Test
    void aTableTheDatabaseDoesNotHaveIsLeftOut() throws Exception {
        String url = "jdbc:derby:" + dir.resolve("db");
        try (Connection connection = DriverManager.getConnection(url + ";create=true")) {
            DerbyIndexStatistics statistics =
                    new DerbyIndexStatistics(List.of("NO_SUCH_TABLE"), dir.resolve("record"));
            assertEquals(List.of(), statistics.refreshStale(connection));
        } finally {
            shutDown(url);
        }
    }

    private static void shutDown(String url) {
        try {
            DriverManager.getConnection(url + ";shutdown=true").close();
        } catch (SQLException e) {
            // Derby reports a database shut down as an exception (08006).
            assertEquals("08006", e.getSQLState(), e.toString());
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
            assertTrue(statistics.next(), "Derby has no statistics of the index " + index);
            Matcher rows = Pattern.compile("numrows= (\\d+)").matcher(statistics.getString(1));
            assertTrue(rows.find(), "Derby's statistics of " + index + " read: " + statistics.getString(1));
            return Long.parseLong(rows.group(1));
        }
    }
}
