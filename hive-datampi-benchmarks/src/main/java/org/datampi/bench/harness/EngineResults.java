package org.datampi.bench.harness;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * One engine's part of a benchmark run: its timings, its peak memory, its exit code, and the runner's output
 * directory (where each workload's result rows of its last run are, {@code <workload>.tsv}).
 */
record EngineResults(String engine, List<Timing> timings, long peakMegabytes, int exitCode, Path runnerOut) {
    static final String CSV_HEADER = "engine,peak_mb,exit_code";

    EngineResults {
        requireNonNull(engine, "engine is null");
        timings = List.copyOf(timings);
        requireNonNull(runnerOut, "runnerOut is null");
    }

    /** Reads the runner's OUT/timings.csv (none when the runner died before writing it). */
    static EngineResults read(String engine, Path runnerOut, long peakMegabytes, int exitCode) throws IOException {
        Path csv = runnerOut.resolve("timings.csv");
        List<Timing> timings = !Files.exists(csv) ? List.of()
                : Files.readAllLines(csv, StandardCharsets.UTF_8).stream().skip(1).map(Timing::fromCsv).toList();
        return new EngineResults(engine, timings, peakMegabytes, exitCode, runnerOut);
    }

    /**
     * An engine's results as RUNNER_OUT/FINISHED recorded them once its runner ended (a header, then its line of
     * engines.csv); empty when there is no such file or the runner failed.
     */
    static Optional<EngineResults> readFinished(String engine, Path runnerOut, String finished) throws IOException {
        Path csv = runnerOut.resolve(finished);
        if (!Files.exists(csv)) {
            return Optional.empty();
        }
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        String[] fields = lines.size() == 2 ? lines.get(1).split(",") : new String[0];
        if (fields.length != 3 || !fields[0].equals(engine) || !fields[2].equals("0")) {
            return Optional.empty();
        }
        return Optional.of(read(engine, runnerOut, Long.parseLong(fields[1]), 0));
    }

    /** The line of OUT/engines.csv that {@link #readAll} reads back. */
    String toCsv() {
        return engine + "," + peakMegabytes + "," + exitCode;
    }

    /** A finished side-by-side run: OUT/engines.csv and each engine's OUT/ENGINE/timings.csv. */
    static List<EngineResults> readAll(Path out) throws IOException {
        return Files.readAllLines(out.resolve("engines.csv"), StandardCharsets.UTF_8).stream().skip(1)
                .map(line -> line.split(",")).map(fields -> {
                    try {
                        return read(fields[0], out.resolve(fields[0]), Long.parseLong(fields[1]),
                                Integer.parseInt(fields[2]));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }).toList();
    }

    /** The result rows of the workload's last run; empty when it wrote none. */
    List<String> resultRows(String workload) throws IOException {
        Path tsv = runnerOut.resolve(workload + ".tsv");
        return Files.exists(tsv) ? Files.readAllLines(tsv, StandardCharsets.UTF_8) : List.of();
    }

    /** Median seconds per workload, in run order; empty for a workload with a failed run. */
    Map<String, OptionalDouble> medians() {
        return medians(Timing::seconds);
    }

    /** The median of a measure of the runs (e.g. Hive's compile time) per workload, as {@link #medians()}. */
    Map<String, OptionalDouble> medians(ToDoubleFunction<Timing> measure) {
        Map<String, List<Timing>> byWorkload = timings.stream()
                .collect(Collectors.groupingBy(Timing::workload, LinkedHashMap::new, Collectors.toList()));
        Map<String, OptionalDouble> medians = new LinkedHashMap<>();
        byWorkload.forEach((workload, runs) -> medians.put(workload, runs.stream().allMatch(Timing::ok)
                ? OptionalDouble.of(median(runs.stream().mapToDouble(measure).toArray()))
                : OptionalDouble.empty()));
        return medians;
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
