package org.datampi.bench.compat;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * bin/hive-compat --report: a run's results.tsv summed up as the README shows it: the files per class, the share of
 * those that run on Hive on MR that give its rows on datampi, whose rows Hive's recorded output has where the engines
 * differ, and the same per Hive feature, told by the file's name as Hive's own files are named (groupby*, vector_*,
 * acid_*, ...), so that what fails is grouped by what it exercises.
 *
 * @param rows results.tsv's rows, without its header: file, class, detail, ..., recorded_at_difference (column 7)
 */
public record CompatReport(List<String[]> rows) {
    /** The classes in the order the report gives them. */
    private static final List<String> CLASSES = List.of("same", "differs", "fails-on-datampi", "timeout-on-datampi",
            "fails-on-mr", "timeout-on-mr", "fails-on-both", "harness-error");
    /** Classes of a file that runs on Hive on MR: those the share is of. */
    private static final List<String> RUN_ON_MR = List.of("same", "differs", "fails-on-datampi",
            "timeout-on-datampi");

    /** A feature and the names of Hive's qfiles that exercise it; the first that matches a file's name is its. */
    private record Feature(String name, Pattern files) {
    }

    private static final List<Feature> FEATURES = List.of(
            feature("vectorization", "vector|vectoriz"),
            feature("transactional tables", "acid|^mm_|insert_only|txn|transactional|^update|^delete|^merge|"
                    + "compact"),
            feature("authorization", "authoriz|^grant|^revoke|role"),
            feature("materialized views", "materialized_view|^mv_"),
            feature("windowing and PTF", "window|ptf|^lead|^lag"),
            feature("joins", "join|smb"),
            feature("group by and aggregates", "groupby|group_by|grouping|^count|distinct|cube|rollup|^udaf"),
            feature("subqueries, CTEs, unions", "subquery|^cte|union|lateral|explode|^except|^intersect"),
            feature("functions", "^udf|^udtf|function|^macro"),
            feature("file formats and SerDes", "orc|parquet|avro|rcfile|json|csv|sequencefile|serde|^compress|"
                    + "textfile|^fileformat"),
            feature("partitions and buckets", "partition|dynpart|list_bucket|bucket|^skew"),
            feature("statistics", "stats|analyze|^annotate"),
            feature("optimizer", "^cbo|ppd|optimiz|correlation|semijoin|constprog|dedup|pcr|pcs|^reduce_|^limit|"
                    + "^topn|^sharedwork"),
            feature("types", "timestamp|date|interval|decimal|char|varchar|^type|cast|^literal|^float|^double"),
            feature("DDL, views, databases", "^create|^alter|^drop|^describe|^desc|^show|^ddl|database|view|"
                    + "^rename|^truncate|^exchange|^repl|^constraint"),
            feature("loads and inserts", "^insert|^load|ctas|multi_insert|^input|^output"));

    private static Feature feature(String name, String names) {
        return new Feature(name, Pattern.compile(names));
    }

    public CompatReport {
        rows = List.copyOf(requireNonNull(rows, "rows is null"));
    }

    public static CompatReport read(Path results) throws IOException {
        return new CompatReport(Files.readAllLines(results, StandardCharsets.UTF_8).stream().skip(1)
                .filter(line -> !line.isBlank()).map(line -> line.split("\t", -1)).toList());
    }

    /** The feature a qfile exercises, by its name; "other" when its name tells none. */
    static String featureOf(String file) {
        String name = file.toLowerCase(java.util.Locale.ROOT);
        return FEATURES.stream().filter(f -> f.files().matcher(name).find()).map(Feature::name).findFirst()
                .orElse("other");
    }

    /**
     * The totals, a line each: the files per class, the share of those that run on mr that give its rows on ENGINE,
     * and whose rows Hive's recorded output has where the engines differ.
     */
    public List<String> totals(String engine) {
        List<String> lines = new java.util.ArrayList<>();
        Map<String, Long> counts = counts(rows);
        lines.add(rows.size() + " files: " + CLASSES.stream().filter(counts::containsKey)
                .map(c -> counts.get(c) + " " + c).collect(Collectors.joining(", ")));
        long onMr = RUN_ON_MR.stream().mapToLong(c -> counts.getOrDefault(c, 0L)).sum();
        if (onMr > 0) {
            lines.add(String.format("of the %d files that run on mr, %d (%s) give the same rows on %s", onMr,
                    counts.getOrDefault("same", 0L), share(counts.getOrDefault("same", 0L), onMr), engine));
        }
        Map<String, Long> recorded = rows.stream().filter(r -> r[1].equals("differs"))
                .collect(Collectors.groupingBy(r -> r.length > 6 && !r[6].isEmpty() ? r[6] : "not recorded",
                        TreeMap::new, Collectors.counting()));
        if (!recorded.isEmpty()) {
            lines.add("where they differ, Hive's recorded output has the rows of: " + recorded.entrySet().stream()
                    .map(e -> e.getKey() + " in " + e.getValue()).collect(Collectors.joining(", ")));
        }
        return lines;
    }

    /** The report: the totals, then a Markdown table with a line per feature, most files first. */
    public String text() {
        StringBuilder text = new StringBuilder();
        totals("datampi").forEach(line -> text.append(line).append(System.lineSeparator()));
        Map<String, List<String[]>> byFeature = new LinkedHashMap<>();
        rows.stream().sorted(java.util.Comparator.comparing(r -> r[0]))
                .forEach(r -> byFeature.computeIfAbsent(featureOf(r[0]), f -> new java.util.ArrayList<>()).add(r));
        text.append(System.lineSeparator()).append("| feature | files | same | differs | fails on datampi | fails on mr |"
                + " fails on both | same, of those that run on mr |").append(System.lineSeparator())
                .append("|---|---:|---:|---:|---:|---:|---:|---:|").append(System.lineSeparator());
        byFeature.entrySet().stream().sorted(Map.Entry.<String, List<String[]>>comparingByValue(
                java.util.Comparator.comparingInt(List::size)).reversed()).forEach(e -> {
                    Map<String, Long> c = counts(e.getValue());
                    long runOnMr = RUN_ON_MR.stream().mapToLong(k -> c.getOrDefault(k, 0L)).sum();
                    text.append(String.format("| %s | %d | %d | %d | %d | %d | %d | %s |%n", e.getKey(),
                            e.getValue().size(), c.getOrDefault("same", 0L), c.getOrDefault("differs", 0L),
                            c.getOrDefault("fails-on-datampi", 0L) + c.getOrDefault("timeout-on-datampi", 0L),
                            c.getOrDefault("fails-on-mr", 0L) + c.getOrDefault("timeout-on-mr", 0L),
                            c.getOrDefault("fails-on-both", 0L) + c.getOrDefault("harness-error", 0L),
                            share(c.getOrDefault("same", 0L), runOnMr)));
                });
        return text.toString();
    }

    private static Map<String, Long> counts(List<String[]> rows) {
        return rows.stream().collect(Collectors.groupingBy(r -> r[1], TreeMap::new, Collectors.counting()));
    }

    private static String share(long part, long whole) {
        return whole == 0 ? "-" : String.format("%.1f%%", 100.0 * part / whole);
    }
}
