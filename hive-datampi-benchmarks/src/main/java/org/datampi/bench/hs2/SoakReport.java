package org.datampi.bench.hs2;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * What a soak's samples say: a table of every sample, and each measure's growth: the largest rise from a baseline (the
 * first sample after BASELINE statements, when the JIT, Hive's caches and the query set's classes have settled) to
 * any later sample. For the ranks, the samples of the group that ran longest (a cancelled stage ends its group; a new
 * one starts from nothing); for HiveServer2, the whole run.
 */
final class SoakReport {
    /** The measures a soak bounds for the ranks (issue 27: heap after GC, threads, descriptors). */
    static final List<String> BOUNDED = List.of("heap", "threads", "fds");
    private static final Map<String, ToLongFunction<JvmSample>> MEASURES = measures();

    private SoakReport() {
    }

    private static Map<String, ToLongFunction<JvmSample>> measures() {
        Map<String, ToLongFunction<JvmSample>> measures = new LinkedHashMap<>();
        measures.put("heap", JvmSample::heapAfterGcBytes);
        measures.put("threads", JvmSample::threads);
        measures.put("fds", JvmSample::fileDescriptors);
        measures.put("classes", JvmSample::loadedClasses);
        measures.put("rss", JvmSample::residentBytes);
        return measures;
    }

    /** Growth in percent of each measure, "ranks_heap", "server_threads" and so on; absent where too few samples. */
    static Map<String, Double> growth(List<SoakSample> samples, int baselineQueries) {
        Map<String, Double> growth = new LinkedHashMap<>();
        Map<Integer, List<SoakSample>> byGroup = samples.stream().filter(sample -> !sample.ranks().isEmpty())
                .collect(Collectors.groupingBy(SoakSample::group, LinkedHashMap::new, Collectors.toList()));
        Optional<List<SoakSample>> longest = byGroup.values().stream()
                .max(Comparator.comparingInt(group -> group.get(group.size() - 1).queries() - group.get(0).queries()));
        longest.flatMap(group -> fromBaseline(group, baselineQueries)).ifPresent(span -> MEASURES.forEach(
                (name, metric) -> growth.put("ranks_" + name, largestRise(span, sample -> sample.ranksMax(metric)))));
        List<SoakSample> withServer = samples.stream().filter(sample -> sample.server().isPresent()).toList();
        fromBaseline(withServer, baselineQueries).ifPresent(span -> MEASURES.forEach((name, metric) -> growth.put(
                "server_" + name, largestRise(span, sample -> metric.applyAsLong(sample.server().orElseThrow())))));
        return growth;
    }

    /**
     * The samples from the first at or after BASELINE statements (else the first but the last) to the last; empty
     * below two samples.
     */
    private static Optional<List<SoakSample>> fromBaseline(List<SoakSample> samples, int baselineQueries) {
        if (samples.size() < 2) {
            return Optional.empty();
        }
        int base = 0;
        while (base < samples.size() - 2 && samples.get(base).queries() < baselineQueries) {
            base++;
        }
        return Optional.of(samples.subList(base, samples.size()));
    }

    /** The largest rise, in percent, from SPAN's first sample to any later one (negative when all are below it). */
    private static double largestRise(List<SoakSample> span, ToLongFunction<SoakSample> value) {
        long base = value.applyAsLong(span.get(0));
        return span.stream().skip(1).mapToDouble(sample -> percent(base, value.applyAsLong(sample))).max()
                .orElseThrow();
    }

    private static double percent(long base, long end) {
        return base == 0 ? (end == 0 ? 0 : 100) : 100.0 * (end - base) / base;
    }

    /** The measures among BOUNDED whose ranks' growth is above MAX_PERCENT, as "ranks_heap +12.3%". */
    static List<String> overBound(Map<String, Double> growth, double maxPercent) {
        List<String> over = new ArrayList<>();
        for (String measure : BOUNDED) {
            Double value = growth.get("ranks_" + measure);
            if (value != null && value > maxPercent) {
                over.add(String.format(Locale.ROOT, "ranks_%s %+.1f%%", measure, value));
            }
        }
        return over;
    }

    static String table(List<SoakSample> samples) {
        StringBuilder table = new StringBuilder("| statements | group | ranks | rank heap after GC MB | rank RSS MB "
                + "| rank threads | rank fds | rank classes | server heap after GC MB | server threads | server fds | "
                + "server classes | files under the ranks' directory |\n"
                + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (SoakSample sample : samples) {
            Optional<JvmSample> server = sample.server();
            table.append(String.format(Locale.ROOT, "| %d | %d | %d | %.1f | %.0f | %d | %d | %d | %s | %s | %s | %s "
                    + "| %d |%n", sample.queries(), sample.group(), sample.ranks().size(),
                    sample.ranksMax(JvmSample::heapAfterGcBytes) / 1048576.0,
                    sample.ranksMax(JvmSample::residentBytes) / 1048576.0, sample.ranksMax(JvmSample::threads),
                    sample.ranksMax(JvmSample::fileDescriptors), sample.ranksMax(JvmSample::loadedClasses),
                    server.map(jvm -> String.format(Locale.ROOT, "%.1f", jvm.heapAfterGcBytes() / 1048576.0))
                            .orElse("-"),
                    server.map(jvm -> Integer.toString(jvm.threads())).orElse("-"),
                    server.map(jvm -> Integer.toString(jvm.fileDescriptors())).orElse("-"),
                    server.map(jvm -> Long.toString(jvm.loadedClasses())).orElse("-"), sample.localFiles()));
        }
        return table.toString();
    }

    static List<String> growthLines(Map<String, Double> growth) {
        return growth.entrySet().stream().map(entry -> String.format(Locale.ROOT, "soak_%s_growth_percent=%.1f",
                entry.getKey(), entry.getValue())).toList();
    }
}
