package org.datampi.bench.tpch;

import static java.util.Objects.requireNonNull;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;

/**
 * bin/tpch-gen: writes the 8 TPC-H tables in dbgen's format ('|'-separated, with the trailing '|') with
 * io.trino.tpch, one directory per table, streaming row by row. The large tables are split into several files so
 * that a scan has several input splits. A file appears under its final name only once it is complete, so a re-run
 * after an interruption writes only the files that are missing. What a run makes (scale, files) is recorded before
 * its first file ({@value #STARTED}) and, once every file is there, as {@value #MARKER} (bin/tpch-load refuses a
 * directory without it): a run into a directory that holds another scale or file count, or files that record none,
 * is refused rather than mixed with them.
 *
 * <p>Arguments: {@code --scale SF --out DIR [--files N]} (N files for each large table; default 4).
 */
public final class TpchGenerator {
    /** The file a complete output directory holds, naming its scale and files: {@code scale=10.0}. */
    public static final String MARKER = "tpch-gen.properties";
    /** What a run that has not finished makes, recorded before its first file. */
    private static final String STARTED = ".tpch-gen.started";
    /** Tables small enough (or fixed in size) to stay in one file. */
    private static final Set<String> SINGLE_FILE = Set.of("nation", "region", "supplier");
    private static final long PROGRESS_ROWS = 1_000_000;

    private final double scale;
    private final Path out;
    private final int files;
    private final PrintStream progress;

    public TpchGenerator(double scale, Path out, int files, PrintStream progress) {
        if (!(scale > 0)) {
            throw new IllegalArgumentException("Invalid value '" + scale + "' for --scale: expected a number > 0");
        }
        if (files < 1) {
            throw new IllegalArgumentException("Invalid value '" + files + "' for --files: expected an integer >= 1");
        }
        this.scale = scale;
        this.out = requireNonNull(out, "out is null");
        this.files = files;
        this.progress = requireNonNull(progress, "progress is null");
    }

    public static void main(String[] args) throws IOException {
        Double scale = null;
        Path out = null;
        int files = 4;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--scale" -> scale = Double.parseDouble(args[i + 1]);
                case "--out" -> out = Path.of(args[i + 1]);
                case "--files" -> files = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("Unknown option " + args[i]);
            }
        }
        if (scale == null || out == null || args.length % 2 != 0) {
            throw new IllegalArgumentException("Usage: tpch-gen --scale SF --out DIR [--files N]");
        }
        new TpchGenerator(scale, out, files, System.err).generate();
    }

    /**
     * Writes every file that is not already there, then the marker. Refuses, naming the directory, one that holds
     * another scale or file count, or TPC-H files that record neither.
     */
    public void generate() throws IOException {
        Files.createDirectories(out);
        String settings = "scale=" + scale + "\nfiles=" + files + "\ngenerator=io.trino.tpch\n";
        Path marker = out.resolve(MARKER);
        Path started = out.resolve(STARTED);
        Path recorded = Files.exists(marker) ? marker : started;
        if (Files.exists(recorded)) {
            String holds = Files.readString(recorded, StandardCharsets.UTF_8);
            if (!holds.equals(settings)) {
                throw new IllegalStateException(out + " holds TPC-H data of " + holds.replace('\n', ' ').trim()
                        + ", not scale=" + scale + " files=" + files + ": use another --out, or delete it");
            }
        } else if (tableNames().stream().anyMatch(name -> Files.exists(out.resolve(name)))) {
            throw new IllegalStateException(out + " holds TPC-H tables whose scale was not recorded: use another "
                    + "--out, or delete it");
        } else {
            Files.writeString(started, settings, StandardCharsets.UTF_8);
        }
        for (TpchTable<?> table : TpchTable.getTables()) {
            generate(table);
        }
        if (Files.exists(started)) {
            Files.move(started, marker, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        progress.printf(Locale.ROOT, "tpch-gen: scale %s in %s: %d tables%n", scale, out, tableNames().size());
    }

    private <E extends TpchEntity> void generate(TpchTable<E> table) throws IOException {
        String name = table.getTableName();
        Path directory = Files.createDirectories(out.resolve(name));
        int parts = SINGLE_FILE.contains(name) ? 1 : files;
        long rows = 0;
        int there = 0;
        for (int part = 1; part <= parts; part++) {
            Path file = directory.resolve(String.format(Locale.ROOT, "%s.tbl.%d", name, part));
            if (Files.exists(file)) {
                there++;
                continue;
            }
            Path partial = directory.resolve("." + file.getFileName() + ".partial");
            try (BufferedWriter writer = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
                for (E row : table.createGenerator(scale, part, parts)) {
                    writer.write(row.toLine());
                    writer.write('\n');
                    if (++rows % PROGRESS_ROWS == 0) {
                        progress.printf(Locale.ROOT, "tpch-gen: %s %,d rows%n", name, rows);
                    }
                }
            }
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        if (there == parts) {
            progress.printf(Locale.ROOT, "tpch-gen: %s already there, %d file(s)%n", name, parts);
        } else {
            progress.printf(Locale.ROOT, "tpch-gen: %s done, %,d rows in %d file(s)%s%n", name, rows, parts - there,
                    there == 0 ? "" : String.format(Locale.ROOT, ", %d more already there", there));
        }
    }

    /** The table names, in dbgen's naming, as the directories are named. */
    public static List<String> tableNames() {
        return TpchTable.getTables().stream().map(TpchTable::getTableName).toList();
    }
}
