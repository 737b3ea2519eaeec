package org.datampi.hive.session;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.apache.hadoop.hive.metastore.utils.MetastoreVersionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default's Derby metastore, its schema created all at once before Hive first uses it.
 *
 * <p>Why: left to itself, DataNucleus creates each metastore table when Hive first touches its class, and the
 * metastore's direct SQL (which alone gives the planner a partitioned table's column statistics) reads tables such as
 * PART_COL_STATS and KEY_CONSTRAINTS before that. Outside a transaction Hive falls back to its ORM; inside one (adding
 * the partitions of a dynamically partitioned INSERT) Derby cannot roll back to Hive's savepoint and the statement
 * fails; and the transaction tables DbTxnManager needs (TXNS, HIVE_LOCKS, TXN_LOCK_TBL...) are not JDO classes, so
 * DataNucleus never creates them. So the schema is Hive's own, made by Hive's schema tool with Hive's Derby script
 * ({@link MetastoreSchema}) before Hive opens the metastore, with the indexes on column statistics the planner's
 * aggregation needs. Each time it opens, it also refreshes Derby's index statistics of the metastore's tables that
 * grew or shrank since ({@link DerbyIndexStatistics}), on which the plans of the metastore's direct SQL depend.
 *
 * <p>A metastore that an earlier version of this engine created from Hive's JDO metadata (its record says
 * "indexes") keeps working for every table but transactional ones, whose statements fail on the missing TXNS
 * tables: opening it warns, naming the directory to move aside.
 */
public final class EmbeddedMetastore {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMetastore.class);
    private static final String CONNECTION_URL = "javax.jdo.option.ConnectionURL";
    private static final String DATABASE_DIR = "metastore_db";
    /** What an earlier version's record of a metastore made from Hive's JDO metadata says ("Hive 4.1.0, indexes"). */
    private static final String LEGACY_RECORD = ", indexes ";
    private static final Set<Path> WARNED_LEGACY = ConcurrentHashMap.newKeySet();
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
     * metastore the user configured elsewhere): creates its schema if it has none yet
     * ({@link #createSchema}), then refreshes the index statistics of the tables that changed since
     * ({@link DerbyIndexStatistics}).
     */
    public static synchronized void prepare(HiveConf conf, Path stateDir) {
        requireNonNull(conf, "conf is null");
        // A session with hive.metastore.uris talks to that metastore: the Derby URL it still carries is unused.
        if (!url(stateDir).equals(conf.get(CONNECTION_URL))
                || !MetastoreConf.getVar(conf, MetastoreConf.ConfVars.THRIFT_URIS).isBlank()) {
            return;
        }
        createSchema(conf, stateDir);
        refreshIndexStatistics(conf, stateDir);
    }

    /**
     * Creates Hive's schema in the state directory's metastore when it has none yet (a new one, or one whose record
     * names another Hive version: Hive's schema tool upgrades it). A file beside the database records the Hive
     * version whose schema is there. A database restored or deleted beside an old record is created again.
     */
    private static void createSchema(HiveConf conf, Path stateDir) {
        Path created = database(stateDir).resolveSibling(DATABASE_DIR + ".tables");
        String recorded = read(created);
        String current = "Hive " + MetastoreVersionInfo.getVersion() + " schema, by Hive's schema tool";
        boolean databaseExists = Files.exists(database(stateDir).resolve("service.properties"));
        if (databaseExists && current.equals(recorded)) {
            return;
        }
        if (databaseExists && recorded.contains(LEGACY_RECORD)) {
            if (WARNED_LEGACY.add(database(stateDir))) {
                LOG.warn("The metastore {} was created from Hive's JDO metadata by an earlier version of this engine "
                        + "and has no transaction tables: statements on transactional (ACID) tables fail on it. Move "
                        + "it aside (with {}) to have a new one created with Hive's full schema.", database(stateDir),
                        created.getFileName());
            }
            return;
        }
        MetastoreSchema.initOrUpgrade(conf, new MetastoreSchema.Database("derby", url(stateDir),
                "org.apache.derby.jdbc.EmbeddedDriver", conf.get(CONNECTION_USER, "APP"),
                conf.get(CONNECTION_PASSWORD, "")), System.err);
        try {
            Files.writeString(created, current);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot record the metastore's schema in " + created, e);
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
