package org.datampi.bench.compat;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.Warehouse;
import org.apache.hadoop.hive.metastore.api.NoSuchObjectException;
import org.apache.hadoop.hive.ql.cache.results.QueryResultsCache;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.metadata.Hive;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.hive.ql.metadata.HiveMaterializedViewsRegistry;
import org.apache.hadoop.hive.ql.metadata.Table;
import org.apache.hadoop.hive.ql.plan.mapper.StatsSources;

/**
 * What the qfiles of one session JVM share, as Hive's own qtest driver shares it between the files it runs in one JVM
 * (QTestUtil.clearTestSideEffects): the datasets' databases, tables and functions, loaded once; everything else a
 * file made is dropped after it (materialized views first, then tables, databases, functions and roles), with the
 * warehouse directories of no source table and Hive's JVM-wide caches of plans, query results and runtime statistics.
 * It also holds the source tables' files (path and length), so that a file that changed one (Hive's tests forbid it
 * with the EnforceReadOnlyTables hook, which a file can set aside) is noticed: the files after it then get a fresh JVM.
 *
 * <p>Immutable: a snapshot, taken once the datasets a JVM's files need are loaded.
 */
final class SourceObjects {
    private final Set<String> databases;
    /** db.table, lower case. */
    private final Set<String> tables;
    /** The default database's functions. */
    private final Set<String> functions;
    /** The source tables' files and their lengths. */
    private final Map<String, Long> files;
    /** The warehouse's roots, managed and external, as the session had them before a file could SET others. */
    private final List<String> warehouses;

    private SourceObjects(Set<String> databases, Set<String> tables, Set<String> functions, Map<String, Long> files,
            List<String> warehouses) {
        this.databases = Set.copyOf(databases);
        this.tables = Set.copyOf(tables);
        this.functions = Set.copyOf(functions);
        this.files = Map.copyOf(files);
        this.warehouses = List.copyOf(warehouses);
    }

    /** What the metastore of CONF holds now: every database, table and default function is a source object. */
    static SourceObjects snapshot(HiveConf conf) throws HiveException, IOException {
        Hive db = Hive.get(conf);
        Set<String> databases = new TreeSet<>();
        Set<String> tables = new TreeSet<>();
        Map<String, Long> files = new TreeMap<>();
        for (String database : db.getAllDatabases()) {
            databases.add(database.toLowerCase(Locale.ROOT));
            for (String table : db.getAllTables(database)) {
                tables.add(key(database, table));
                Table source = db.getTable(database, table, false);
                if (source != null && source.getDataLocation() != null) {
                    files.putAll(filesUnder(source.getDataLocation(), conf));
                }
            }
        }
        Set<String> functions = new TreeSet<>(db.getFunctions(Warehouse.DEFAULT_DATABASE_NAME, ".*"));
        List<String> warehouses = new ArrayList<>();
        for (HiveConf.ConfVars root : List.of(HiveConf.ConfVars.METASTORE_WAREHOUSE,
                HiveConf.ConfVars.HIVE_METASTORE_WAREHOUSE_EXTERNAL)) {
            String location = HiveConf.getVar(conf, root);
            if (location != null && !location.isBlank()) {
                warehouses.add(location);
            }
        }
        return new SourceObjects(databases, tables, functions, files, warehouses);
    }

    /** The default database's source tables, as EnforceReadOnlyTables reads them (test.src.tables). */
    String defaultTables() {
        return String.join(",", tables.stream().filter(t -> t.startsWith(Warehouse.DEFAULT_DATABASE_NAME + "."))
                .map(t -> t.substring(t.indexOf('.') + 1)).sorted().toList());
    }

    /** Whether the source tables' files are as they were at the snapshot. */
    boolean unchanged(HiveConf conf) throws HiveException, IOException {
        Hive db = Hive.get(conf);
        Map<String, Long> now = new TreeMap<>();
        for (String table : tables) {
            String[] parts = table.split("\\.", 2);
            Table source = db.getTable(parts[0], parts[1], false);
            if (source == null) {
                return false;
            }
            if (source.getDataLocation() != null) {
                now.putAll(filesUnder(source.getDataLocation(), conf));
            }
        }
        return now.equals(files);
    }

    /**
     * Drops what is not a source object, as QTestUtil.clearTablesCreatedDuringTests and its caches' clean-up do, with
     * the metastore's filter hook set aside as there (a file may have set one that hides tables).
     */
    void dropTheRest(HiveConf conf) throws HiveException, IOException, NoSuchObjectException {
        conf.set("hive.metastore.filter.hook", "org.apache.hadoop.hive.metastore.DefaultMetaStoreFilterHookImpl");
        Hive db = Hive.get(conf);
        // Materialized views first: a table under one cannot be dropped before it.
        for (String database : db.getAllDatabases()) {
            for (String name : db.getAllTables(database)) {
                Table table = db.getTable(database, name, false);
                if (table != null && table.isMaterializedView() && !tables.contains(key(database, name))) {
                    db.dropTable(database, name, true, true, true);
                    HiveMaterializedViewsRegistry.get().dropMaterializedView(database, name);
                }
            }
        }
        for (String database : db.getAllDatabases()) {
            for (String name : db.getAllTables(database)) {
                if (!tables.contains(key(database, name))) {
                    db.dropTable(database, name, true, true, true);
                }
            }
            if (!databases.contains(database.toLowerCase(Locale.ROOT))) {
                db.dropDatabase(database, true, true, true);
            }
        }
        for (String function : db.getFunctions(Warehouse.DEFAULT_DATABASE_NAME, ".*")) {
            if (!functions.contains(function)) {
                db.dropFunction(Warehouse.DEFAULT_DATABASE_NAME, function);
            }
        }
        for (String role : db.getAllRoleNames()) {
            if (!role.equalsIgnoreCase("public") && !role.equalsIgnoreCase("admin")) {
                db.dropRole(role);
            }
        }
        // An external table's directory stays after its drop, and would be the next file's table of that name.
        for (String location : warehouses) {
            Path root = new Path(location);
            FileSystem fs = root.getFileSystem(conf);
            if (!fs.exists(root)) {
                continue;
            }
            for (FileStatus status : fs.listStatus(root)) {
                String name = status.getPath().getName().toLowerCase(Locale.ROOT);
                boolean source = tables.contains(key(Warehouse.DEFAULT_DATABASE_NAME, name))
                        || (name.endsWith(".db") && databases.contains(name.substring(0, name.length() - 3)));
                if (status.isDirectory() && !source) {
                    fs.delete(status.getPath(), true);
                }
            }
        }
        Utilities.clearWorkMap(conf);
        QueryResultsCache.cleanupInstance();
        StatsSources.clearGlobalStats();
    }

    private static String key(String database, String table) {
        return (database + "." + table).toLowerCase(Locale.ROOT);
    }

    private static Map<String, Long> filesUnder(Path location, HiveConf conf) throws IOException {
        requireNonNull(location, "location");
        FileSystem fs = location.getFileSystem(conf);
        Map<String, Long> files = new TreeMap<>();
        if (!fs.exists(location)) {
            return files;
        }
        RemoteIterator<LocatedFileStatus> listed = fs.listFiles(location, true);
        while (listed.hasNext()) {
            LocatedFileStatus status = listed.next();
            files.put(status.getPath().toString(), status.getLen());
        }
        return files;
    }
}
