package org.datampi.bench.tpcds;

import static java.util.Objects.requireNonNull;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.trino.tpcds.Results;
import io.trino.tpcds.Session;
import io.trino.tpcds.Table;
import io.trino.tpcds.TableGenerator;

/**
 * bin/tpcds-gen: writes the 24 TPC-DS tables as the TPC-DS kit's dsdgen writes them ('|'-separated with the
 * trailing '|', NULL as an empty field), one directory per table, with io.trino.tpcds, Trino's Java port of dsdgen
 * (the TPC-H data comes from its sibling io.trino.tpch). A Java generator runs in the benchmark's own JVM at any
 * scale, including the small ones the tests use; DuckDB's dsdgen (PyPI) would add a Python runtime to every
 * benchmark machine and does not finish below scale 0.01.
 *
 * <p>dsdgen's own chunking is kept: a table of a million rows or more is cut into {@code --files} chunks, each its
 * own file, generated in parallel; a sales table and its returns table (store_sales and store_returns, ...) are
 * generated together, as dsdgen does. A file appears under its final name only once it is complete, so a re-run
 * after an interruption generates only the chunks that are missing; {@value #MARKER}, naming the scale, is written
 * last.
 *
 * <p>Arguments: {@code --scale SF --out DIR [--files N] [--threads T]} (N chunks for each large table, default 4;
 * T threads, default the cores).
 */
public final class TpcdsGenerator {
    /** The file a complete output directory holds, naming its scale: {@code scale=1.0}. */
    public static final String MARKER = "tpcds-gen.properties";
    private static final String USAGE = "tpcds-gen --scale SF --out DIR [--files N] [--threads T]";

    private final double scale;
    private final Path out;
    private final int files;
    private final int threads;
    private final PrintStream progress;

    public TpcdsGenerator(double scale, Path out, int files, int threads, PrintStream progress) {
        if (!(scale > 0) || scale > 100_000) {
            throw new IllegalArgumentException("Invalid value '" + scale + "' for --scale: expected a number > 0 "
                    + "and at most 100000");
        }
        if (files < 1) {
            throw new IllegalArgumentException("Invalid value '" + files + "' for --files: expected an integer >= 1");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("Invalid value '" + threads + "' for --threads: expected an "
                    + "integer >= 1");
        }
        this.scale = scale;
        this.out = requireNonNull(out, "out is null");
        this.files = files;
        this.threads = threads;
        this.progress = requireNonNull(progress, "progress is null");
    }

    public static void main(String[] args) throws IOException {
        Double scale = null;
        Path out = null;
        int files = 4;
        int threads = Runtime.getRuntime().availableProcessors();
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("Usage: " + USAGE);
        }
        for (int i = 0; i < args.length; i += 2) {
            switch (args[i]) {
                case "--scale" -> scale = Double.parseDouble(args[i + 1]);
                case "--out" -> out = Path.of(args[i + 1]);
                case "--files" -> files = Integer.parseInt(args[i + 1]);
                case "--threads" -> threads = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("Unknown option " + args[i] + ". Usage: " + USAGE);
            }
        }
        if (scale == null || out == null) {
            throw new IllegalArgumentException("Usage: " + USAGE);
        }
        new TpcdsGenerator(scale, out, files, threads, System.err).generate();
    }

    /** The 24 tables' names, as dsdgen names them and as their directories are named. */
    public static List<String> tableNames() {
        return tables().stream().map(Table::getName).toList();
    }

    private static List<Table> tables() {
        return Table.getBaseTables().stream().filter(table -> table != Table.DBGEN_VERSION).toList();
    }

    /** Generates every chunk that is not already there, {@code --threads} at a time. */
    public void generate() throws IOException {
        Files.createDirectories(out);
        Session session = Session.getDefaultSession().withScale(scale).withParallelism(files);
        List<Chunk> chunks = new ArrayList<>();
        for (Table table : tables()) {
            if (table.isChild()) {
                continue; // written with its parent
            }
            // dsdgen parallelizes only tables of a million rows or more: the others are one chunk.
            boolean split = session.getScaling().getRowCount(table) >= 1_000_000;
            for (int chunk = 1; chunk <= (split ? files : 1); chunk++) {
                chunks.add(new Chunk(table, chunk, split));
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (Chunk chunk : chunks) {
                running.add(pool.submit(() -> write(session, chunk)));
            }
            for (Future<?> future : running) {
                future.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("tpcds-gen interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            throw new IOException("tpcds-gen failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
        // Written last: bin/tpcds-load takes a directory without it (an interrupted run) for incomplete.
        Path marker = out.resolve(MARKER);
        Files.writeString(marker.resolveSibling(MARKER + ".partial"), "scale=" + scale + "\nfiles=" + files
                + "\ngenerator=io.trino.tpcds 1.4\n", StandardCharsets.UTF_8);
        Files.move(marker.resolveSibling(MARKER + ".partial"), marker, StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        progress.printf(Locale.ROOT, "tpcds-gen: scale %s in %s: %d tables%n", scale, out, tableNames().size());
    }

    /** One table's chunk (with its child table's rows for a sales table): the unit of work and of resuming. */
    private record Chunk(Table table, int number, boolean split) {
        Path file(Path out, Table of) {
            String name = split ? String.format(Locale.ROOT, "%s_%d.dat", of.getName(), number)
                    : of.getName() + ".dat";
            return out.resolve(of.getName()).resolve(name);
        }
    }

    private void write(Session session, Chunk chunk) {
        Table table = chunk.table();
        List<Table> written = table.hasChild() ? List.of(table, table.getChild()) : List.of(table);
        List<Path> finals = written.stream().map(of -> chunk.file(out, of)).toList();
        if (finals.stream().allMatch(Files::exists)) {
            progress.printf(Locale.ROOT, "tpcds-gen: %s chunk %d already there%n", table.getName(), chunk.number());
            return;
        }
        Session chunkSession = session.withChunkNumber(chunk.number());
        List<Path> partials = finals.stream()
                .map(file -> file.resolveSibling("." + file.getFileName() + ".partial")).toList();
        long[] rows = new long[written.size()];
        try {
            for (Path partial : partials) {
                Files.createDirectories(partial.getParent());
            }
            try (BufferedWriter parent = Files.newBufferedWriter(partials.get(0), StandardCharsets.UTF_8);
                    BufferedWriter child = written.size() > 1
                            ? Files.newBufferedWriter(partials.get(1), StandardCharsets.UTF_8) : null) {
                for (List<List<String>> rowAndChild : Results.constructResults(table, chunkSession)) {
                    // A sales row comes with its returns row when it was returned: [sale] or [sale, return].
                    if (!rowAndChild.isEmpty()) {
                        parent.write(TableGenerator.formatRow(rowAndChild.get(0), chunkSession));
                        rows[0]++;
                    }
                    if (rowAndChild.size() > 1) {
                        child.write(TableGenerator.formatRow(rowAndChild.get(1), chunkSession));
                        rows[1]++;
                    }
                }
            }
            for (int i = 0; i < finals.size(); i++) {
                Files.move(partials.get(i), finals.get(i), StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("tpcds-gen: writing " + finals.get(0) + ": " + e.getMessage(), e);
        }
        for (int i = 0; i < written.size(); i++) {
            progress.printf(Locale.ROOT, "tpcds-gen: %s chunk %d: %,d rows%n", written.get(i).getName(),
                    chunk.number(), rows[i]);
        }
    }
}
