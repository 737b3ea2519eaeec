package org.datampi.bench.tpcds;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hive.common.io.SessionStream;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.datampi.bench.harness.RunnerOptions;
import org.datampi.bench.harness.WorkloadRunner;
import org.datampi.hive.cli.HiveQlScript;
import org.datampi.hive.session.QuerySession;

/**
 * bin/tpcds-load: loads bin/tpcds-gen's files into Hive. The text database ({@code tpcds_sf<S>_text}) is external
 * tables over the files (tpcds-queries/ddl/text-tables.sql); any other layout is a copy Hive makes of it: CTAS for
 * each table, or, partitioned, the fact tables created {@code PARTITIONED BY} their date key and filled by one
 * dynamic-partition INSERT each (distributed by the key, so one file per partition, as hive-testbench's loader
 * writes them). Every table gets table and column statistics, so that Hive's CBO plans as on a warehouse: the text
 * tables by {@code ANALYZE ... COMPUTE STATISTICS FOR COLUMNS}, the copies as Hive writes them (its statistics
 * autogathering, on by default; ANALYZE when it is off).
 *
 * <p>Bad input is refused before anything is written: data that is not a complete tpcds-gen output, or of another
 * scale. A re-run replaces every table (DROP, then create), so rows are never duplicated. The database's
 * {@value TpcdsLayout#LOADED_PROPERTY} property is cleared first and set last: the runner refuses a database
 * without it (a load that stopped half way).
 */
public final class TpcdsLoader {
    private static final String USAGE = "tpcds-load --scale SF --data DIR|URI "
            + "--format text|orc|rcfile|sequencefile|parquet [--layout flat|partitioned] [--action load|check] "
            + "[--warehouse DIR] [--hiveconf KEY=VALUE]...";
    /** The exit code of {@code --action check} for a database that is missing or half loaded. */
    public static final int NOT_LOADED = 3;

    private final QuerySession hive;
    private final Path home;
    private final PrintStream progress;

    public TpcdsLoader(QuerySession hive, Path home, PrintStream progress) {
        this.hive = requireNonNull(hive, "hive is null");
        this.home = requireNonNull(home, "home is null");
        this.progress = requireNonNull(progress, "progress is null");
    }

    public static void main(String[] args) throws Exception {
        RunnerOptions options = RunnerOptions.parse(USAGE, args, List.of("--scale", "--data", "--format", "--layout",
                "--action", "--warehouse"), Map.of("--layout", "flat", "--action", "load",
                "--warehouse", WorkloadRunner.defaultStateDir()));
        String action = options.get("--action");
        if (!action.equals("load") && !action.equals("check")) {
            throw new IllegalArgumentException("Invalid value '" + action + "' for --action: expected load or check");
        }
        TpcdsLayout layout = TpcdsLayout.of(options.get("--scale"), options.get("--format"), options.get("--layout"));
        SessionStream console = new SessionStream(System.err, true, StandardCharsets.UTF_8.name());
        SessionStream ignored = new SessionStream(OutputStream.nullOutputStream());
        try (QuerySession hive = QuerySession.start(Path.of(options.get("--warehouse")), options.hiveconf(),
                ignored, console)) {
            TpcdsLoader loader = new TpcdsLoader(hive, WorkloadRunner.home(), System.err);
            if (action.equals("check")) {
                boolean loaded = loader.isLoaded(layout);
                System.err.println("tpcds-load: " + layout.database() + (loaded ? " is loaded" : " is missing or "
                        + "half loaded"));
                System.exit(loaded ? 0 : NOT_LOADED);
            }
            String data = options.get("--data");
            if (!data.contains("://")) {
                data = Path.of(data).toAbsolutePath().normalize().toUri().toString();
            }
            loader.load(layout, data);
        } catch (IOException | CommandProcessorException e) {
            System.err.println("tpcds-load: " + e.getMessage());
            System.exit(1);
        }
        System.exit(0);
    }

    /** Loads the layout (and the text database it is copied from) from data, a directory URI. */
    public void load(TpcdsLayout layout, String data) throws IOException, CommandProcessorException {
        load(layout, data, TpcdsGenerator.tableNames());
    }

    /**
     * Loads only the named tables of the layout (the text database whole), for tests whose queries read a few of
     * them: a partitioned fact table costs the metastore some 2,000 partitions with their statistics. The database
     * is marked as holding those tables, which {@link #isLoaded} does not take for the layout.
     */
    public void load(TpcdsLayout layout, String data, Collection<String> tables)
            throws IOException, CommandProcessorException {
        List<String> unknown = tables.stream().filter(table -> !TpcdsGenerator.tableNames().contains(table)).toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("TPC-DS has no table " + String.join(", ", unknown));
        }
        List<String> chosen = TpcdsGenerator.tableNames().stream().filter(tables::contains).toList();
        boolean whole = chosen.size() == TpcdsGenerator.tableNames().size();
        String dataUri = data.replaceAll("/+$", "");
        checkData(layout, dataUri);
        long start = System.nanoTime();
        TpcdsLayout text = new TpcdsLayout(layout.scale(), "text", false);
        // The text database names the files it reads: one loaded from these files is what every copy reads.
        String textMark = text.loadedMark() + " data=" + dataUri;
        if (loadedMark(hive, text.database()).equals(textMark)) {
            progress.println("tpcds-load: " + text.database() + " is loaded from " + dataUri);
        } else {
            beginLoad(text.database());
            hive.execute("SET hivevar:DB=" + text.database());
            hive.execute("SET hivevar:DATA=" + dataUri);
            for (String statement : HiveQlScript.parse(Files.readString(home.resolve(
                    "tpcds-queries/ddl/text-tables.sql"), StandardCharsets.UTF_8)).all()) {
                hive.execute(statement);
            }
            // External tables have no statistics until analyzed; the copies' plans are made from them too.
            analyze(text, TpcdsGenerator.tableNames());
            endLoad(text.database(), textMark, start);
        }
        if (layout.isSource()) {
            return;
        }
        beginLoad(layout.database());
        hive.execute("USE " + layout.database());
        hive.execute("SET hive.exec.dynamic.partition=true");
        hive.execute("SET hive.exec.dynamic.partition.mode=nonstrict");
        hive.execute("SET hive.exec.max.dynamic.partitions=100000");
        hive.execute("SET hive.exec.max.dynamic.partitions.pernode=100000");
        String format = layout.format().toUpperCase(Locale.ROOT);
        for (String table : chosen) {
            hive.execute("DROP TABLE IF EXISTS " + table);
            String source = layout.textDatabase() + "." + table;
            if (layout.partitionKey(table).isEmpty()) {
                hive.execute("CREATE TABLE " + table + " STORED AS " + format + " AS SELECT * FROM " + source);
            } else {
                String key = layout.partitionKey(table).get();
                List<String> columns = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (String row : hive.execute("DESCRIBE " + source)) {
                    String[] fields = row.split("\t");
                    String name = fields[0].strip();
                    if (!name.equals(key)) {
                        columns.add(name + " " + fields[1].strip());
                        names.add(name);
                    }
                }
                hive.execute("CREATE TABLE " + table + " (" + String.join(", ", columns) + ") PARTITIONED BY ("
                        + key + " BIGINT) STORED AS " + format);
                hive.execute("INSERT OVERWRITE TABLE " + table + " PARTITION (" + key + ") SELECT "
                        + String.join(", ", names) + ", " + key + " FROM " + source + " DISTRIBUTE BY " + key);
            }
            progress.println("tpcds-load: " + layout.database() + "." + table + " copied");
        }
        if (!statisticsGatheredOnWrite()) {
            analyze(layout, chosen);
        }
        endLoad(layout.database(), whole ? layout.loadedMark() : layout.loadedMark(chosen), start);
        // The partitions just added, for the queries of this session (a test's; bin/tpcds-run's sessions start
        // after the load and refresh them as they start).
        hive.refreshMetastoreStatistics();
    }

    /**
     * Whether Hive gathers table and column statistics as it writes (hive.stats.autogather and
     * hive.stats.column.autogather, on by default in Hive 4): then a copy has them once written, as ANALYZE ... FOR
     * COLUMNS would give them, and running it again would only repeat the work (for every partition).
     */
    private boolean statisticsGatheredOnWrite() {
        return hive.conf().getBoolVar(HiveConf.ConfVars.HIVE_STATS_AUTOGATHER)
                && hive.conf().getBoolVar(HiveConf.ConfVars.HIVE_STATS_COL_AUTOGATHER);
    }

    /** Whether the layout's database was loaded to the end. */
    public boolean isLoaded(TpcdsLayout layout) throws CommandProcessorException {
        return layout.isLoadedBy(loadedMark(hive, layout.database()));
    }

    /**
     * The database's {@value TpcdsLayout#LOADED_PROPERTY}: empty when it does not exist or a load did not finish.
     */
    public static String loadedMark(QuerySession hive, String database) throws CommandProcessorException {
        if (hive.execute("SHOW DATABASES LIKE '" + database + "'").isEmpty()) {
            return "";
        }
        // DESCRIBE DATABASE EXTENDED's last field: {key=value, ...}.
        for (String row : hive.execute("DESCRIBE DATABASE EXTENDED " + database)) {
            int at = row.indexOf(TpcdsLayout.LOADED_PROPERTY + "=");
            if (at >= 0) {
                String rest = row.substring(at + TpcdsLayout.LOADED_PROPERTY.length() + 1);
                int end = rest.indexOf(rest.contains(", ") ? ", " : "}");
                return (end >= 0 ? rest.substring(0, end) : rest).strip();
            }
        }
        return "";
    }

    private void beginLoad(String database) throws CommandProcessorException {
        hive.execute("CREATE DATABASE IF NOT EXISTS " + database);
        hive.execute("ALTER DATABASE " + database + " SET DBPROPERTIES ('" + TpcdsLayout.LOADED_PROPERTY
                + "'='loading')");
    }

    private void endLoad(String database, String mark, long start) throws CommandProcessorException {
        hive.execute("ALTER DATABASE " + database + " SET DBPROPERTIES ('" + TpcdsLayout.LOADED_PROPERTY + "'='"
                + mark + "')");
        progress.printf(Locale.ROOT, "tpcds-load: %s loaded in %.0f s%n", database, (System.nanoTime() - start) / 1e9);
    }

    private void analyze(TpcdsLayout layout, List<String> tables) throws CommandProcessorException {
        hive.execute("USE " + layout.database());
        for (String table : tables) {
            hive.execute("ANALYZE TABLE " + table + " COMPUTE STATISTICS FOR COLUMNS");
        }
        progress.println("tpcds-load: " + layout.database() + ": column statistics of " + tables.size() + " tables");
    }

    /** Refuses data that is not a complete tpcds-gen output of the layout's scale, naming what is wrong. */
    private void checkData(TpcdsLayout layout, String dataUri) throws IOException {
        org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(dataUri);
        FileSystem fs = root.getFileSystem(hive.conf());
        org.apache.hadoop.fs.Path marker = new org.apache.hadoop.fs.Path(root, TpcdsGenerator.MARKER);
        if (!fs.exists(root)) {
            throw new IOException(dataUri + " does not exist: generate it with bin/tpcds-gen --scale "
                    + layout.scale() + " --out DIR");
        }
        if (!fs.exists(marker)) {
            throw new IOException(dataUri + " is not a complete bin/tpcds-gen output (no " + TpcdsGenerator.MARKER
                    + "): run bin/tpcds-gen --scale " + layout.scale() + " --out " + dataUri
                    + " (again: it resumes where it stopped)");
        }
        Properties generated = new Properties();
        try (InputStream in = fs.open(marker)) {
            generated.load(in);
        }
        String scale = generated.getProperty("scale", "?");
        if (scale.equals("?") || Double.parseDouble(scale) != Double.parseDouble(layout.scale())) {
            throw new IOException(dataUri + " holds TPC-DS scale " + scale + ", not --scale " + layout.scale());
        }
        List<String> missing = new ArrayList<>();
        for (String table : TpcdsGenerator.tableNames()) {
            org.apache.hadoop.fs.Path directory = new org.apache.hadoop.fs.Path(root, table);
            long files = 0;
            if (fs.exists(directory)) {
                for (FileStatus file : fs.listStatus(directory)) {
                    files += file.getPath().getName().endsWith(".dat") && file.getLen() > 0 ? 1 : 0;
                }
            }
            if (files == 0) {
                missing.add(table);
            }
        }
        if (!missing.isEmpty()) {
            throw new IOException(dataUri + " has no data files (*.dat) for " + String.join(", ",
                    missing.stream().sorted().toList()) + ": run bin/tpcds-gen --scale " + layout.scale()
                    + " --out " + dataUri + " again");
        }
    }
}
