package org.datampi.hive.session;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import javax.jdo.PersistenceManager;
import javax.jdo.datastore.JDOConnection;

import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.PersistenceManagerProvider;
import org.apache.hadoop.hive.metastore.utils.MetastoreVersionInfo;
import org.datanucleus.PersistenceNucleusContext;
import org.datanucleus.api.jdo.JDOPersistenceManagerFactory;
import org.datanucleus.metadata.MetaDataManager;
import org.datanucleus.store.schema.SchemaAwareStoreManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default's Derby metastore, its tables created all at once before Hive first uses it.
 *
 * <p>Why: left to itself, DataNucleus creates each metastore table when Hive first touches its class, and the
 * metastore's direct SQL (which alone gives the planner a partitioned table's column statistics) reads tables such as
 * PART_COL_STATS and KEY_CONSTRAINTS before that. Outside a transaction Hive falls back to its ORM; inside one (adding
 * the partitions of a dynamically partitioned INSERT) Derby cannot roll back to Hive's savepoint and the statement
 * fails. Hive's own answer is its schema tool's SQL scripts, which ship only in Hive's binary tarball, not in its jars;
 * so this creates the same tables from the JDO metadata that Hive's jar does ship ({@code package.jdo}), with
 * DataNucleus's schema tool, before Hive opens the metastore, and adds the indexes on column statistics that Hive's
 * scripts create and its JDO metadata does not declare. Each time it opens, it also refreshes Derby's index
 * statistics of the metastore's tables that grew or shrank since ({@link DerbyIndexStatistics}), on which the plans
 * of the metastore's direct SQL depend.
 */
public final class EmbeddedMetastore {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMetastore.class);
    private static final String CONNECTION_URL = "javax.jdo.option.ConnectionURL";
    private static final String DATABASE_DIR = "metastore_db";
    private static final String HIVE_JDO_METADATA = "package.jdo";
    /**
     * The indexes on column statistics that Hive's schema scripts create and its JDO metadata does not declare.
     * Without PCS_STATS_IDX, aggregating the statistics of a table's partitions for the planner scans PART_COL_STATS
     * (some 2 s a fact table over TPC-DS's partitioned layout at scale 1).
     */
    private static final List<StatisticsIndex> STATISTICS_INDEXES = List.of(
            new StatisticsIndex("PCS_STATS_IDX", "PART_COL_STATS", "\"PART_ID\", \"COLUMN_NAME\""),
            new StatisticsIndex("TAB_COL_STATS_IDX", "TAB_COL_STATS", "\"TBL_ID\", \"COLUMN_NAME\""));
    /**
     * The tables the metastore's direct SQL reads for each query over partitioned tables (partitions, their keys,
     * parameters and storage, column statistics): those whose Derby index statistics are kept current.
     */
    private static final List<String> QUERIED_TABLES = List.of("TBLS", "TABLE_PARAMS", "COLUMNS_V2", "PARTITIONS",
            "PARTITION_KEY_VALS", "PARTITION_PARAMS", "SDS", "SD_PARAMS", "SERDES", "SERDE_PARAMS", "PART_COL_STATS",
            "TAB_COL_STATS");
    private static final String CONNECTION_USER = "javax.jdo.option.ConnectionUserName";
    private static final String CONNECTION_PASSWORD = "javax.jdo.option.ConnectionPassword";
    /** Derby's own log (derby.log), which it otherwise writes into the working directory. */
    private static final String DERBY_LOG = "derby.stream.error.file";
    /**
     * How many compiled statements Derby keeps. Derby compiles each SQL text it has not kept to Java bytecode, and the
     * metastore's direct SQL sends more different texts than Derby's default of 100 for one Hive query over
     * partitioned tables (partition listings, their parameters and storage descriptors, column statistics, each per
     * batch of partitions): with 2,000 kept, Hive compiled q49, q75, q78, q5 and q80 of TPC-DS over the partitioned
     * layout a second time in 25.9 s rather than 34.5 s (EXPLAIN in a warm CLI), as a report or dashboard run again
     * would. Queries each compiled once (the TPC-DS benchmark) compile in the same time. Each statement kept costs some
     * kilobytes of heap.
     */
    private static final String DERBY_STATEMENT_CACHE = "derby.language.statementCacheSize";
    private static final String DERBY_STATEMENTS_KEPT = "2000";

    private EmbeddedMetastore() {
    }

    /**
     * Sets Derby's properties for the state directory's metastore: its log beside the other logs, and its statement
     * cache. Derby reads them once, from the JVM's system properties, as it starts; one the user set (java -D) is kept.
     */
    public static void configureDerby(Path stateDir) {
        if (System.getProperty(DERBY_LOG) == null) {
            Path logs = requireNonNull(stateDir, "stateDir is null").toAbsolutePath().resolve("logs");
            try {
                Files.createDirectories(logs);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot create the log directory " + logs, e);
            }
            System.setProperty(DERBY_LOG, logs.resolve("derby.log").toString());
        }
        if (System.getProperty(DERBY_STATEMENT_CACHE) == null) {
            System.setProperty(DERBY_STATEMENT_CACHE, DERBY_STATEMENTS_KEPT);
        }
    }

    /** The JDBC URL of the state directory's Derby metastore. */
    static String url(Path stateDir) {
        return "jdbc:derby:;databaseName=" + database(stateDir) + ";create=true";
    }

    private static Path database(Path stateDir) {
        return requireNonNull(stateDir, "stateDir is null").toAbsolutePath().resolve(DATABASE_DIR);
    }

    /**
     * Prepares the state directory's Derby metastore before Hive opens it, when conf points at it (does nothing for a
     * metastore the user configured elsewhere): creates its tables and indexes if they have not been
     * ({@link #createTables}), then refreshes the index statistics of the tables that changed since
     * ({@link DerbyIndexStatistics}).
     */
    public static synchronized void prepare(HiveConf conf, Path stateDir) {
        requireNonNull(conf, "conf is null");
        if (!url(stateDir).equals(conf.get(CONNECTION_URL))) {
            return;
        }
        createTables(conf, stateDir);
        refreshIndexStatistics(conf, stateDir);
    }

    /**
     * Creates every metastore table this Hive version has when they have not been created yet (a new metastore, or
     * one that an earlier version of this engine or of Hive let DataNucleus create table by table): DataNucleus adds
     * the missing tables and leaves the others. A file beside the database records the Hive version whose tables are
     * there, and the indexes. Hive keeps one metastore connection factory per JVM (PersistenceManagerProvider): this
     * points it at the state directory's metastore, as the session's own first metastore call would, so a session
     * still open on another metastore in the same JVM loses its connection.
     */
    private static void createTables(HiveConf conf, Path stateDir) {
        Path created = database(stateDir).resolveSibling(DATABASE_DIR + ".tables");
        // What the file records: Hive's version and the indexes added, so that a change to either creates again.
        String recorded = "Hive " + MetastoreVersionInfo.getVersion() + ", indexes "
                + STATISTICS_INDEXES.stream().map(StatisticsIndex::name).toList();
        // A database restored or deleted beside an old record is created again.
        boolean databaseExists = Files.exists(database(stateDir).resolve("service.properties"));
        if (databaseExists && recorded.equals(read(created))) {
            return;
        }
        // The factory Hive's ObjectStore will use: same properties, so it is created once.
        PersistenceManager manager;
        try {
            PersistenceManagerProvider.updatePmfProperties(conf);
            manager = PersistenceManagerProvider.getPersistenceManager();
        } catch (RuntimeException e) {
            throw new IllegalStateException("Cannot open the metastore " + database(stateDir)
                    + " (Derby lets one process at a time open it: is another Hive using this state directory?): "
                    + rootCause(e), e);
        }
        try {
            PersistenceNucleusContext context =
                    ((JDOPersistenceManagerFactory) manager.getPersistenceManagerFactory()).getNucleusContext();
            MetaDataManager metadata = context.getMetaDataManager();
            metadata.loadMetaDataFiles(new String[] {HIVE_JDO_METADATA}, conf.getClassLoader());
            Set<String> classes = new TreeSet<>(metadata.getClassesWithMetaData());
            if (classes.isEmpty()) {
                throw new IllegalStateException("Hive's " + HIVE_JDO_METADATA + " lists no metastore classes: "
                        + "cannot create the metastore " + database(stateDir) + " (has Hive's jar changed?)");
            }
            ((SchemaAwareStoreManager) context.getStoreManager()).createSchemaForClasses(classes, new Properties());
            createStatisticsIndexes(manager, stateDir);
        } finally {
            manager.close();
        }
        try {
            Files.writeString(created, recorded);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot record the metastore's tables in " + created, e);
        }
    }

    /**
     * Refreshes Derby's statistics of the indexes of the tables that changed by more than a tenth since their last
     * refresh (the counts recorded in {@code metastore_db.statistics}), on a connection of its own: Derby boots the
     * database once per JVM and Hive's connections share it.
     */
    private static void refreshIndexStatistics(HiveConf conf, Path stateDir) {
        Path record = database(stateDir).resolveSibling(DATABASE_DIR + ".statistics");
        DerbyIndexStatistics statistics = new DerbyIndexStatistics(QUERIED_TABLES, record);
        long start = System.nanoTime();
        try (Connection connection = DriverManager.getConnection(url(stateDir), conf.get(CONNECTION_USER, "APP"),
                conf.get(CONNECTION_PASSWORD, ""))) {
            List<String> refreshed = statistics.refreshStale(connection);
            if (!refreshed.isEmpty()) {
                LOG.info("Refreshed Derby's index statistics of the metastore's {} in {} ms", refreshed,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            }
        } catch (SQLException e) {
            // Where this is the first to open the database in this JVM (its tables created before), another process
            // holding it shows here: Derby's "Failed to start database", caused by XSDB6.
            throw new IllegalStateException("Cannot refresh the index statistics of the metastore "
                    + database(stateDir) + " (Derby lets one process at a time open it: is another Hive using this "
                    + "state directory?): " + rootCause(e), e);
        }
    }

    private static void createStatisticsIndexes(PersistenceManager manager, Path stateDir) {
        JDOConnection jdo = manager.getDataStoreConnection();
        try {
            Connection connection = (Connection) jdo.getNativeConnection();
            for (StatisticsIndex index : STATISTICS_INDEXES) {
                try {
                    index.createIfMissing(connection);
                } catch (SQLException e) {
                    throw new IllegalStateException("Cannot create the index " + index.name() + " on "
                            + index.table() + " in the metastore " + database(stateDir) + ": " + e.getMessage(), e);
                }
            }
        } finally {
            jdo.close();
        }
    }

    /** The innermost cause, following Derby's chained SQLExceptions too. */
    private static String rootCause(Throwable e) {
        Throwable cause = e;
        while (true) {
            Throwable next = cause instanceof SQLException sql && sql.getNextException() != null
                    ? sql.getNextException() : cause.getCause();
            if (next == null || next == cause) {
                return cause.toString();
            }
            cause = next;
        }
    }

    private record StatisticsIndex(String name, String table, String columns) {
        void createIfMissing(Connection connection) throws SQLException {
            String schema = connection.getSchema();
            try (ResultSet existing = connection.getMetaData().getIndexInfo(null, schema, table, false, true)) {
                while (existing.next()) {
                    if (name.equals(existing.getString("INDEX_NAME"))) {
                        return;
                    }
                }
            }
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE INDEX \"" + name + "\" ON \"" + table + "\" (" + columns + ")");
            }
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).trim();
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }
}
