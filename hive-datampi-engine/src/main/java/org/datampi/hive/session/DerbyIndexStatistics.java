package org.datampi.hive.session;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * Derby's statistics of a database's indexes, refreshed for the tables whose row count moved by more than a tenth
 * since they were last refreshed here (a record file beside the database keeps the counts).
 *
 * <p>Why: Derby's optimizer chooses between probing an index and scanning a table by the row counts its index
 * statistics record, and keeps them only roughly current itself: its statistics daemon refreshes a table's when a
 * statement compiled against it finds the table's size off the recorded one by a factor of e (2.7) and by 1,000 rows
 * (Derby 10.14), and the metastore's statements, kept compiled (EmbeddedMetastore's statement cache), are seldom
 * compiled again. A load of many partitions leaves them at some point of the load, and the metastore's direct SQL
 * then picks plans for the tables as they were. Loading TPC-DS's partitioned layout at scale 1 left PARTITIONS'
 * statistics at 6,156 of its 11,918 rows, and the statements with which Hive's planner adds up a fact table's column
 * statistics ({@code PART_NAME IN} 1,823 names) scanned PARTITIONS and compared each row with each name: 2.0 to 2.7 s
 * each, two per fact table of every query compiled, where probing the UNIQUEPARTITION index takes 0.25 s once the
 * statistics are current.
 *
 * <p>Not thread-safe: one thread at a time refreshes a database's statistics (EmbeddedMetastore.prepare's lock).
 */
final class DerbyIndexStatistics {
    /** How far a table's row count may move from the one its statistics were refreshed at before they are again. */
    static final double STALE_CHANGE = 0.1;

    private final List<String> tables;
    private final Path record;

    /** The statistics of TABLES' indexes, their row counts at the last refresh kept in RECORD. */
    DerbyIndexStatistics(List<String> tables, Path record) {
        this.tables = List.copyOf(requireNonNull(tables, "tables is null"));
        this.record = requireNonNull(record, "record is null");
    }

    /**
     * Refreshes the statistics of each table whose row count is not within {@link #STALE_CHANGE} of the one recorded
     * at its last refresh (or has none recorded), records the counts, and returns the tables refreshed.
     */
    List<String> refreshStale(Connection connection) throws SQLException {
        Map<String, Long> recorded = read();
        Map<String, Long> counts = new LinkedHashMap<>(recorded);
        List<String> refreshed = new ArrayList<>();
        String schema = connection.getSchema();
        for (String table : tables) {
            OptionalLong counted = rows(connection, schema, table);
            if (counted.isEmpty()) {
                continue;
            }
            long rows = counted.getAsLong();
            Long before = recorded.get(table);
            if (before == null || Math.abs(rows - before) > STALE_CHANGE * before) {
                try (CallableStatement update =
                        connection.prepareCall("CALL SYSCS_UTIL.SYSCS_UPDATE_STATISTICS(?, ?, NULL)")) {
                    update.setString(1, schema);
                    update.setString(2, table);
                    update.execute();
                }
                counts.put(table, rows);
                refreshed.add(table);
            }
        }
        if (!refreshed.isEmpty()) {
            write(counts);
        }
        return refreshed;
    }

    /** The table's rows; none for a table this metastore does not have (another Hive version's schema). */
    private static OptionalLong rows(Connection connection, String schema, String table) throws SQLException {
        try (ResultSet exists = connection.getMetaData().getTables(null, schema, table, null)) {
            if (!exists.next()) {
                return OptionalLong.empty();
            }
        }
        try (Statement statement = connection.createStatement();
                ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM \"" + table + "\"")) {
            count.next();
            return OptionalLong.of(count.getLong(1));
        }
    }

    private Map<String, Long> read() {
        Map<String, Long> counts = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(record)) {
                String[] fields = line.trim().split("\\s+");
                if (fields.length == 2 && fields[1].matches("\\d+")) {
                    counts.put(fields[0], Long.parseLong(fields[1]));
                }
            }
        } catch (NoSuchFileException e) {
            return counts;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the metastore's index statistics record " + record, e);
        }
        return counts;
    }

    private void write(Map<String, Long> counts) {
        String text = counts.entrySet().stream().map(entry -> entry.getKey() + " " + entry.getValue())
                .collect(Collectors.joining("\n", "", "\n"));
        try {
            // Whole or not at all: a record cut short would leave tables out of it (refreshed again, no harm done).
            Path written = Files.writeString(record.resolveSibling(record.getFileName() + ".new"), text);
            Files.move(written, record, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot record the metastore's index statistics in " + record, e);
        }
    }
}
