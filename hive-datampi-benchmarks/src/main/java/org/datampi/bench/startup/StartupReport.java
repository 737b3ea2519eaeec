package org.datampi.bench.startup;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.datampi.bench.startup.StartupBench.Measure;
import org.datampi.bench.startup.StartupBench.Mode;

/**
 * StartupBench's table (the median of each measure in each mode, and without over with) and its ratio lines,
 * {@code <measure>_without_vs_with=X}, as the other benches print theirs.
 */
final class StartupReport {
    private final Map<Mode, Map<Measure, Double>> medians = new EnumMap<>(Mode.class);

    /** SECONDS: each mode's timed runs of each measure (every measure of every mode has at least one). */
    StartupReport(Map<Mode, Map<Measure, List<Double>>> seconds) {
        for (Mode mode : Mode.values()) {
            Map<Measure, Double> byMeasure = new EnumMap<>(Measure.class);
            for (Measure measure : Measure.values()) {
                List<Double> runs = seconds.getOrDefault(mode, Map.of()).getOrDefault(measure, List.of());
                if (runs.isEmpty()) {
                    throw new IllegalArgumentException("no timed run of " + measure + " " + mode.label);
                }
                byMeasure.put(measure, median(runs));
            }
            medians.put(mode, byMeasure);
        }
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    /** Without over with: how many times longer a measure takes without the archives. */
    double ratio(Measure measure) {
        return medians.get(Mode.WITHOUT).get(measure) / medians.get(Mode.WITH).get(measure);
    }

    String table() {
        StringBuilder table = new StringBuilder("| seconds | " + Mode.WITHOUT.label + " | " + Mode.WITH.label
                + " | without / with |\n|---|---:|---:|---:|\n");
        for (Measure measure : Measure.values()) {
            table.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2f |%n", measure.label,
                    medians.get(Mode.WITHOUT).get(measure), medians.get(Mode.WITH).get(measure), ratio(measure)));
        }
        return table.toString();
    }

    String ratioLines() {
        StringBuilder lines = new StringBuilder();
        for (Measure measure : Measure.values()) {
            lines.append(String.format(Locale.ROOT, "%s_without_vs_with=%.2f%n", measure.key, ratio(measure)));
        }
        return lines.toString();
    }
}
