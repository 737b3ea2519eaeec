package org.datampi.bench.tpch;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * ClusterTpchBench's report: per query its time at each link rate, the time at each later rate over the first's,
 * what its vertices shuffled, and for each shaped rate the bytes of the host that sent the most over its link and
 * that host's peak rate as a share of the link; the geometric means; whether the answers equal DuckDB's; and the
 * key lines ({@code <rate>_vs_<first>_geomean}, {@code peak_link_share_<rate>}).
 *
 * @param settings the run's setting, one paragraph
 * @param body the table, what its columns mean, the answers
 * @param keyLines the lines a reader greps, one per figure
 */
record ClusterTpchReport(String settings, String body, String keyLines) {
    static final String UNSHAPED = "off";

    ClusterTpchReport {
        requireNonNull(settings, "settings is null");
        requireNonNull(body, "body is null");
        requireNonNull(keyLines, "keyLines is null");
    }

    /**
     * @param workloads the queries' names, in order
     * @param links the rates, the first the one the others are compared with
     * @param runs each rate's run (a rate whose run did not happen has none)
     * @param wrong each answer that differs from DuckDB's, described
     */
    static ClusterTpchReport of(String settings, List<String> workloads, List<String> links,
            Map<String, LinkRun> runs, List<String> wrong) {
        String base = links.get(0);
        List<String> later = links.subList(1, links.size());
        List<String> shaped = links.stream().filter(link -> !link.equals(UNSHAPED)).toList();
        StringBuilder table = new StringBuilder("| query |");
        StringBuilder align = new StringBuilder("|---|");
        links.forEach(link -> column(table, align, "link " + link + " s"));
        later.forEach(link -> column(table, align, link + "/" + base));
        column(table, align, "shuffled MB");
        for (String link : shaped) {
            column(table, align, "busiest host's MB sent at " + link);
            column(table, align, "its peak MB/s");
            column(table, align, "share of " + link);
        }
        table.append('\n').append(align).append('\n');
        Map<String, List<Double>> logSeconds = new LinkedHashMap<>();
        Map<String, List<Double>> logRatios = new LinkedHashMap<>();
        Map<String, Double> peakShare = new LinkedHashMap<>();
        for (String workload : workloads) {
            List<Optional<Double>> seconds = links.stream()
                    .map(link -> Optional.ofNullable(runs.get(link)).map(run -> run.seconds().get(workload))).toList();
            boolean complete = seconds.stream().allMatch(Optional::isPresent);
            table.append("| ").append(workload).append(" |");
            for (int i = 0; i < links.size(); i++) {
                table.append(seconds.get(i).map(s -> format(" %.2f |", s)).orElse(" failed |"));
                if (complete) {
                    logSeconds.computeIfAbsent(links.get(i), link -> new ArrayList<>())
                            .add(Math.log(seconds.get(i).get()));
                }
            }
            for (int i = 1; i < links.size(); i++) {
                if (complete) {
                    double ratio = seconds.get(i).get() / seconds.get(0).get();
                    logRatios.computeIfAbsent(links.get(i), link -> new ArrayList<>()).add(Math.log(ratio));
                    table.append(format(" %.2f |", ratio));
                } else {
                    table.append(" - |");
                }
            }
            Long shuffled = runs.containsKey(base) ? runs.get(base).shuffled().get(workload) : null;
            table.append(shuffled == null ? " - |" : format(" %,.1f |", shuffled / 1e6));
            for (String link : shaped) {
                LinkRun run = runs.get(link);
                Optional<LinkSamples.Busiest> busiest = run == null ? Optional.empty() : run.busiest(workload);
                OptionalDouble peak = run == null ? OptionalDouble.empty() : run.busiestPeakRate(workload);
                table.append(busiest.map(b -> format(" %,.1f |", b.sentBytes() / 1e6)).orElse(" - |"));
                if (peak.isPresent()) {
                    double share = peak.getAsDouble() / ClusterTpchBench.bytesPerSecond(link);
                    peakShare.merge(link, share, Math::max);
                    table.append(format(" %,.1f | %.0f%% |", peak.getAsDouble() / 1e6, 100 * share));
                } else {
                    table.append(" - | - |");
                }
            }
            table.append('\n');
        }
        table.append("| **geometric mean** |");
        links.forEach(link -> table.append(geometricMean(logSeconds.get(link))));
        later.forEach(link -> table.append(geometricMean(logRatios.get(link))));
        table.append(" |").append(" | | |".repeat(shaped.size())).append('\n');

        String answers = wrong.isEmpty()
                ? format("Answers: every query's rows at every rate equal DuckDB's over the same files (%d "
                        + "queries).%n", workloads.size())
                : "Answers that differ from DuckDB's:\n\n```\n" + String.join("\n", wrong) + "\n```\n";
        String body = table + "\nMB are 10^6 bytes. Shuffled: what the query's vertices sent over their edges at link "
                + base + ", from the ranks' counters (a host's own share of it stays on the host). Busiest host: the "
                + "host that sent the most over its link while the query's timed run ran (shuffle, HDFS blocks read by "
                + "other hosts, Hive's traffic with the ranks: every byte that left it); its peak is its highest rate "
                + "over any second of that run (- for a run shorter than a second), as a share of the link's rate.\n\n"
                + answers;
        StringBuilder keyLines = new StringBuilder();
        for (String link : later) {
            keyLines.append(format("%s_vs_%s_geomean=%.2f%n", link, base, geometricMeanValue(logRatios.get(link))));
        }
        peakShare.forEach((link, share) -> keyLines.append(format("peak_link_share_%s=%.2f%n", link, share)));
        return new ClusterTpchReport(settings, body, keyLines.toString());
    }

    private static void column(StringBuilder header, StringBuilder align, String name) {
        header.append(' ').append(name).append(" |");
        align.append("---:|");
    }

    private static String geometricMean(List<Double> logs) {
        return logs == null || logs.isEmpty() ? " - |" : format(" **%.2f** |", geometricMeanValue(logs));
    }

    private static double geometricMeanValue(List<Double> logs) {
        return logs == null || logs.isEmpty() ? Double.NaN
                : Math.exp(logs.stream().mapToDouble(Double::doubleValue).average().orElseThrow());
    }

    private static String format(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
