package org.datampi.bench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Where the time goes in the workloads where datampi is furthest behind its best peer: reads a finished side-by-side
 * run ({@link BenchmarkDriver}'s OUT) and, for the {@code --worst} workloads with the lowest ratio of the best
 * peer's median over datampi's, prints both times, datampi's stages (each with submission, O phase, A phase and
 * commit) and the peer's own execution summary where its console has one (Hive on Tez prints it per DAG with
 * {@code hive.tez.exec.print.summary=true}; {@code --peer-console FILE} names a console.log of such a rerun).
 *
 * <p>Options: {@code --run OUT [--worst 5] [--peer-console FILE] [--out FILE] [--record FILE --section NAME
 * --command TEXT]}; {@code --record} writes it into FILE's section as {@link BenchmarkDriver} does.
 */
public final class WhereTimeGoes {
    private static final String USAGE = "WhereTimeGoes --run OUT [--worst 5] [--peer-console FILE] [--out FILE] "
            + "[--record FILE --section NAME --command TEXT]";
    private static final String BASE = "datampi";
    private static final int SUMMARY_LINES = 40;

    private WhereTimeGoes() {
    }

    public static void main(String[] args) throws IOException {
        RunnerOptions options = RunnerOptions.parse(USAGE, args, List.of("--run", "--worst", "--peer-console",
                "--out", "--record", "--section", "--command"), Map.of("--worst", "5"));
        Path run = Path.of(options.get("--run"));
        List<EngineResults> engines = EngineResults.readAll(run);
        EngineResults base = engines.stream().filter(e -> e.engine().equals(BASE)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(run + " has no datampi results"));
        Map<String, OptionalDouble> baseMedians = base.medians();

        record Gap(String workload, double datampi, String peer, double peerSeconds) {
            double ratio() {
                return peerSeconds / datampi;
            }
        }
        List<Gap> gaps = new ArrayList<>();
        for (Map.Entry<String, OptionalDouble> entry : baseMedians.entrySet()) {
            if (entry.getValue().isEmpty()) {
                continue;
            }
            EngineResults best = null;
            double bestSeconds = Double.MAX_VALUE;
            for (EngineResults peer : engines) {
                OptionalDouble seconds = peer.medians().getOrDefault(entry.getKey(), OptionalDouble.empty());
                if (peer != base && seconds.isPresent() && seconds.getAsDouble() < bestSeconds) {
                    best = peer;
                    bestSeconds = seconds.getAsDouble();
                }
            }
            if (best != null) {
                gaps.add(new Gap(entry.getKey(), entry.getValue().getAsDouble(), best.engine(), bestSeconds));
            }
        }
        gaps.sort(Comparator.comparingDouble(Gap::ratio));

        Map<String, List<String>> consoles = new LinkedHashMap<>();
        for (EngineResults engine : engines) {
            Path console = engine.runnerOut().resolve("console.log");
            consoles.put(engine.engine(), Files.exists(console)
                    ? Files.readAllLines(console, StandardCharsets.UTF_8) : List.of());
        }
        List<String> peerConsole = options.find("--peer-console").isPresent()
                ? Files.readAllLines(Path.of(options.get("--peer-console")), StandardCharsets.UTF_8) : List.of();

        StringBuilder md = new StringBuilder();
        for (Gap gap : gaps.subList(0, Math.min(options.getInt("--worst"), gaps.size()))) {
            List<String> stages = BenchmarkReport.stageLines(consoles.get(BASE), gap.workload());
            long jobs = stageCount(stages);
            md.append(String.format(Locale.ROOT, "- **%s**: datampi %.2f s, best peer %s %.2f s (%s/datampi %.2f); "
                    + "datampi ran %d stage%s:%n", gap.workload(), gap.datampi(), gap.peer(), gap.peerSeconds(),
                    gap.peer(), gap.ratio(), jobs, jobs == 1 ? "" : "s"));
            stages.forEach(stage -> md.append("  - ").append(stage).append('\n'));
            List<String> vertices = datampiSummary(WorkloadRunner.lastRun(consoles.get(BASE), gap.workload()));
            if (!vertices.isEmpty()) {
                md.append("\n  datampi's execution summary (per vertex; CPU time of its tasks):\n\n  ```\n");
                vertices.forEach(line -> md.append("  ").append(line).append('\n'));
                md.append("  ```\n");
            }
            List<String> summary = executionSummary(peerConsole.isEmpty()
                    ? WorkloadRunner.lastRun(consoles.get(gap.peer()), gap.workload())
                    : WorkloadRunner.lastRun(peerConsole, gap.workload()));
            if (!summary.isEmpty()) {
                md.append("\n  ").append(gap.peer()).append("'s execution summary of the same query:\n\n  ```\n");
                summary.forEach(line -> md.append("  ").append(line).append('\n'));
                md.append("  ```\n");
            }
        }
        System.out.print(md);
        if (options.find("--out").isPresent()) {
            Files.writeString(Path.of(options.get("--out")), md.toString(), StandardCharsets.UTF_8);
        }
        if (options.find("--record").isPresent()) {
            BenchmarkDriver.record(Path.of(options.get("--record")), options.get("--section"),
                    options.get("--command"), String.format(Locale.ROOT, "The %s workloads of %s where datampi is "
                            + "furthest behind its best peer (the lowest peer/datampi ratio of medians).",
                            options.get("--worst"), run), md.toString(), "", Optional.empty());
        }
    }

    /** The stages of BenchmarkReport.stageLines: a stage has two (its vertices or phases, then its times). */
    static long stageCount(List<String> stageLines) {
        return stageLines.stream().map(line -> line.split(" ")[1].replace(":", "")).distinct().count();
    }

    /**
     * datampi's per-vertex tables of a run (the console's "Task Execution Summary" of each DAG stage, through its
     * line on spilled data), without their rules.
     */
    static List<String> datampiSummary(List<String> run) {
        List<String> summary = new ArrayList<>();
        boolean inTable = false;
        for (String line : run) {
            if (line.startsWith("Task Execution Summary")) {
                inTable = true;
            }
            if (inTable && !line.isBlank() && !line.startsWith("-----")) {
                summary.add(line);
            }
            if (line.contains("received data spilled")) {
                inTable = false;
            }
        }
        return summary;
    }

    /** Hive on Tez's per-DAG summary lines (hive.tez.exec.print.summary), the vertex table included. */
    private static List<String> executionSummary(List<String> run) {
        for (int i = 0; i < run.size(); i++) {
            if (run.get(i).contains("Query Execution Summary")) {
                List<String> summary = new ArrayList<>();
                for (int j = i; j < run.size() && summary.size() < SUMMARY_LINES; j++) {
                    if (run.get(j).startsWith("bench: ")) {
                        break;
                    }
                    if (!run.get(j).isBlank()) {
                        summary.add(run.get(j));
                    }
                }
                return summary;
            }
        }
        return List.of();
    }
}
