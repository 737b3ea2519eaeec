package org.datampi.bench.harness;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The side-by-side report of one benchmark run: per-workload medians per engine, each other engine's median over
 * the first engine's (the one the run measures: datampi in one of its plan shapes; a ratio above 1 means it is
 * faster), geometric means, peak memory, and where the first engine's time went in its slowest workloads.
 */
final class BenchmarkReport {
    private static final int SLOWEST_SHOWN = 3;

    private final List<EngineResults> engines;
    private final List<String> workloads;
    /** The engine every other is compared with: the first of the run. */
    private final String base;

    BenchmarkReport(List<EngineResults> engines) {
        this.engines = List.copyOf(requireNonNull(engines, "engines is null"));
        this.base = engines.isEmpty() ? "" : engines.get(0).engine();
        Set<String> names = new LinkedHashSet<>();
        engines.forEach(engine -> engine.timings().forEach(timing -> names.add(timing.workload())));
        this.workloads = List.copyOf(names);
    }

    List<String> workloads() {
        return workloads;
    }

    /** The Markdown table, ratio lines and memory; consoleLogs maps an engine to its runner's console.log. */
    String markdown(Map<String, Path> consoleLogs) throws IOException {
        StringBuilder md = new StringBuilder();
        List<EngineResults> others = engines.stream().filter(e -> !e.engine().equals(base)).toList();
        md.append("| workload |");
        engines.forEach(e -> md.append(' ').append(e.engine()).append(" s |"));
        others.forEach(e -> md.append(' ').append(e.engine()).append('/').append(base).append(" |"));
        md.append("\n|---|");
        md.append("---:|".repeat(engines.size() + (hasBase() ? others.size() : 0))).append('\n');
        List<String> mismatched = new ArrayList<>();
        List<String> compared = new ArrayList<>();
        for (String workload : workloads) {
            md.append("| ").append(workload).append(" |");
            for (EngineResults engine : engines) {
                md.append(' ').append(format(engine.medians().getOrDefault(workload, OptionalDouble.empty())))
                        .append(" |");
            }
            if (hasBase()) {
                OptionalDouble baseMedian = base().medians().getOrDefault(workload, OptionalDouble.empty());
                for (EngineResults other : others) {
                    md.append(' ').append(ratio(other.medians().getOrDefault(workload, OptionalDouble.empty()),
                            baseMedian))
                            .append(" |");
                }
            }
            md.append('\n');
            if (hasBase()) {
                for (EngineResults other : others) {
                    if (other.medians().getOrDefault(workload, OptionalDouble.empty()).isPresent()
                            && base().medians().getOrDefault(workload, OptionalDouble.empty()).isPresent()) {
                        compared.add(workload);
                        // Order is not compared: ties of an ORDER BY, and INSERT outputs, may come in any order.
                        if (!ResultRows.differences(base().resultRows(workload), base, other.resultRows(workload),
                                other.engine(), false).isEmpty()) {
                            mismatched.add(other.engine() + " " + workload);
                        }
                    }
                }
            }
        }
        md.append("| **geometric mean** |");
        engines.forEach(e -> md.append(" **").append(format(geomean(e))).append("** |"));
        if (hasBase()) {
            others.forEach(e -> md.append(" **").append(ratio(geomean(e), geomean(base()))).append("** |"));
        }
        md.append("\n\n");
        md.append("Geometric means over the workloads every engine completed (")
                .append(commonWorkloads().size()).append(" of ").append(workloads.size()).append(").");
        if (hasBase() && !others.isEmpty()) {
            md.append(mismatched.isEmpty()
                    ? String.format(Locale.ROOT, " Answers: every engine's result rows equal %s's in all %d "
                            + "comparisons (text and whole numbers exactly, other numbers within 1e-6 relative or "
                            + "0.01).", base, compared.size())
                    : " **Answers differ from " + base + "'s** for: " + String.join(", ", mismatched) + " (see each "
                            + "engine's <workload>.tsv).");
        }
        if (hasBase() && !others.isEmpty()) {
            md.append(compileParagraph(others));
        }
        md.append("\n\nPeak resident memory (the engine's JVM and every process it started, sampled every 200 ms): ");
        List<String> memory = new ArrayList<>();
        engines.forEach(e -> memory.add(String.format(Locale.ROOT, "%s %,d MB", e.engine(), e.peakMegabytes())));
        md.append(String.join(", ", memory)).append(".\n");
        engines.stream().filter(e -> e.exitCode() != 0).forEach(e -> md.append("\n**").append(e.engine())
                .append(" had failures** (runner exit code ").append(e.exitCode()).append("): see its console.log.\n"));
        if (hasBase() && consoleLogs.containsKey(base)) {
            md.append(slowestBreakdown(consoleLogs.get(base)));
        }
        return md.toString();
    }

    /**
     * Hive's compile time, which is mostly the same on every engine (the same parser, planner, metastore calls; Tez and
     * datampi's DAG shape share the task compiler too), and the ratios of what is left: the engines' own part of the
     * time. Where compile weighs much (small data, a metastore slow to list many partitions) the ratio of whole runs
     * understates the difference between the engines. Unknown (NaN) for runs recorded before compile was.
     */
    private String compileParagraph(List<EngineResults> others) {
        List<String> compile = new ArrayList<>();
        engines.forEach(e -> {
            double seconds = sumOverCommon(e.medians(Timing::compileSeconds));
            compile.add(e.engine() + " " + (Double.isNaN(seconds) ? "unknown"
                    : String.format(Locale.ROOT, "%.1f s", seconds)));
        });
        List<String> after = new ArrayList<>();
        others.forEach(e -> after.add(e.engine() + "/" + base + " **" + ratio(geomean(afterCompile(e)),
                geomean(afterCompile(base()))) + "**"));
        return "\n\nHive's compile (parse, plan, metastore, task compiler: mostly the same on every engine), summed "
                + "over those workloads' median runs: " + String.join(", ", compile) + ". After compile, the geometric "
                + "mean of each engine's own time: " + String.join(", ", after) + ".";
    }

    /** The ratio lines a script can grep, e.g. {@code tez-yarn_vs_datampi_geomean=1.64}. */
    List<String> ratioLines() {
        List<String> lines = new ArrayList<>();
        if (hasBase()) {
            for (EngineResults other : engines) {
                if (!other.engine().equals(base)) {
                    lines.add(other.engine() + "_vs_" + base + "_geomean=" + ratio(geomean(other), geomean(base())));
                    lines.add(other.engine() + "_vs_" + base + "_geomean_after_compile="
                            + ratio(geomean(afterCompile(other)), geomean(afterCompile(base()))));
                }
            }
        }
        return lines;
    }

    private static Map<String, OptionalDouble> afterCompile(EngineResults engine) {
        return engine.medians(timing -> timing.seconds() - timing.compileSeconds());
    }

    private double sumOverCommon(Map<String, OptionalDouble> medians) {
        return commonWorkloads().stream().mapToDouble(w -> medians.get(w).getAsDouble()).sum();
    }

    private String slowestBreakdown(Path consoleLog) throws IOException {
        if (!Files.exists(consoleLog)) {
            return "";
        }
        List<String> slowest = base().medians().entrySet().stream().filter(e -> e.getValue().isPresent())
                .sorted(Comparator.comparingDouble((Map.Entry<String, OptionalDouble> e) -> e.getValue().getAsDouble())
                        .reversed())
                .limit(SLOWEST_SHOWN).map(Map.Entry::getKey).toList();
        StringBuilder md = new StringBuilder("\nWhere " + base + "'s time goes in its slowest workloads (last run; per "
                + "stage: Hive's submission, launch of the ranks, O phase and A phase (a DAG stage: its tasks), "
                + "teardown, Hive's commit):\n\n");
        List<String> lines = Files.readAllLines(consoleLog, StandardCharsets.UTF_8);
        for (String workload : slowest) {
            md.append(String.format(Locale.ROOT, "- %s (median %.2f s)%n", workload,
                    base().medians().get(workload).getAsDouble()));
            stageLines(lines, workload).forEach(stage -> md.append("  - ").append(stage).append('\n'));
        }
        return md.toString();
    }

    /** The "datampi: Stage-N job T s: ..." lines of the workload's last timed run. */
    static List<String> stageLines(List<String> consoleLines, String workload) {
        return WorkloadRunner.lastRun(consoleLines, workload).stream()
                .filter(line -> line.matches("datampi: Stage-\\d+ job_\\S+ .*"))
                .map(line -> line.substring("datampi: ".length())).toList();
    }

    private boolean hasBase() {
        return engines.stream().anyMatch(e -> e.engine().equals(base));
    }

    private EngineResults base() {
        return engines.stream().filter(e -> e.engine().equals(base)).findFirst().orElseThrow();
    }

    private List<String> commonWorkloads() {
        return workloads.stream().filter(w -> engines.stream()
                .allMatch(e -> e.medians().getOrDefault(w, OptionalDouble.empty()).isPresent())).toList();
    }

    /** The engine's geometric mean of medians over the workloads every engine completed. */
    OptionalDouble geomean(EngineResults engine) {
        return geomean(engine.medians());
    }

    private OptionalDouble geomean(Map<String, OptionalDouble> medians) {
        List<String> common = commonWorkloads();
        if (common.isEmpty()) {
            return OptionalDouble.empty();
        }
        double logSum = common.stream().mapToDouble(w -> Math.log(medians.get(w).getAsDouble())).sum();
        return OptionalDouble.of(Math.exp(logSum / common.size()));
    }

    private static String format(OptionalDouble seconds) {
        return seconds.isPresent() ? String.format(Locale.ROOT, "%.2f", seconds.getAsDouble()) : "failed";
    }

    private static String ratio(OptionalDouble other, OptionalDouble base) {
        return other.isPresent() && base.isPresent() && Double.isFinite(other.getAsDouble() / base.getAsDouble())
                ? String.format(Locale.ROOT, "%.2f", other.getAsDouble() / base.getAsDouble()) : "-";
    }
}
