package org.datampi.bench.harness;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/** One engine's part of a benchmark run: its timings, its peak memory and its exit code. */
record EngineResults(String engine, List<Timing> timings, long peakMegabytes, int exitCode) {
    EngineResults {
        requireNonNull(engine, "engine is null");
        timings = List.copyOf(timings);
    }

    /** Reads the runner's OUT/timings.csv (none when the runner died before writing it). */
    static EngineResults read(String engine, Path runnerOut, long peakMegabytes, int exitCode) throws IOException {
        Path csv = runnerOut.resolve("timings.csv");
        List<Timing> timings = !Files.exists(csv) ? List.of()
                : Files.readAllLines(csv, StandardCharsets.UTF_8).stream().skip(1).map(Timing::fromCsv).toList();
        return new EngineResults(engine, timings, peakMegabytes, exitCode);
    }

    /** Median seconds per workload, in run order; empty for a workload with a failed run. */
    Map<String, OptionalDouble> medians() {
        Map<String, List<Timing>> byWorkload = timings.stream()
                .collect(Collectors.groupingBy(Timing::workload, LinkedHashMap::new, Collectors.toList()));
        Map<String, OptionalDouble> medians = new LinkedHashMap<>();
        byWorkload.forEach((workload, runs) -> medians.put(workload, runs.stream().allMatch(Timing::ok)
                ? OptionalDouble.of(median(runs.stream().mapToDouble(Timing::seconds).toArray()))
                : OptionalDouble.empty()));
        return medians;
    }

    /** Rows the workload's last run returned, -1 if it never ran. */
    int rows(String workload) {
        return timings.stream().filter(t -> t.workload().equals(workload)).reduce((a, b) -> b).map(Timing::rows)
                .orElse(-1);
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
