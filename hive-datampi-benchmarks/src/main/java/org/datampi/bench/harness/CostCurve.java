package org.datampi.bench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The cost curve: how each engine's time grows with the data. Reads side-by-side runs that {@link BenchmarkDriver}
 * finished at several sizes (each a directory with engines.csv and every engine's timings.csv) and writes a table of
 * each engine's geometric mean per size, its ratio over datampi's and its peak memory, and a log-log chart of the
 * geometric means against the size ({@code OUT/curve.md}, {@code OUT/curve.png}; {@code --record} as the driver's).
 *
 * <p>Options: {@code --points SIZE=DIR,... --size-label TEXT --title TEXT --out DIR --command TEXT
 * [--record FILE --section NAME]}; SIZE is a number (a TPC-H scale factor, HiBench's rows).
 */
public final class CostCurve {
    private static final String USAGE = "CostCurve --points SIZE=DIR,... --size-label TEXT --title TEXT --out DIR "
            + "--command TEXT [--record FILE --section NAME]";
    private static final String BASE = "datampi";

    private CostCurve() {
    }

    public static void main(String[] args) throws IOException {
        RunnerOptions options = RunnerOptions.parse(USAGE, args, List.of("--points", "--size-label", "--title",
                "--out", "--command", "--record", "--section"), Map.of());
        Map<Double, List<EngineResults>> points = new LinkedHashMap<>();
        for (String point : options.get("--points").split(",")) {
            String[] sizeAndDir = point.split("=", 2);
            if (sizeAndDir.length != 2) {
                throw new IllegalArgumentException("--points needs SIZE=DIR,..., got '" + point + "'");
            }
            points.put(Double.parseDouble(sizeAndDir[0]), EngineResults.readAll(Path.of(sizeAndDir[1])));
        }
        Set<String> engines = new LinkedHashSet<>();
        points.values().forEach(results -> results.forEach(engine -> engines.add(engine.engine())));

        String sizeLabel = options.get("--size-label");
        StringBuilder md = new StringBuilder("| " + sizeLabel + " |");
        engines.forEach(engine -> md.append(' ').append(engine).append(" s |"));
        List<String> others = engines.stream().filter(engine -> !engine.equals(BASE)).toList();
        others.forEach(engine -> md.append(' ').append(engine).append('/').append(BASE).append(" |"));
        engines.forEach(engine -> md.append(' ').append(engine).append(" peak MB |"));
        md.append("\n|---:|").append("---:|".repeat(engines.size() * 2 + others.size())).append('\n');
        Map<String, List<Double>> sizes = new LinkedHashMap<>();
        Map<String, List<Double>> means = new LinkedHashMap<>();
        List<String> ratioLines = new ArrayList<>();
        for (Map.Entry<Double, List<EngineResults>> point : points.entrySet()) {
            BenchmarkReport report = new BenchmarkReport(point.getValue());
            Map<String, OptionalDouble> geomeans = new LinkedHashMap<>();
            Map<String, Long> peaks = new LinkedHashMap<>();
            point.getValue().forEach(engine -> {
                geomeans.put(engine.engine(), report.geomean(engine));
                peaks.put(engine.engine(), engine.peakMegabytes());
            });
            String size = number(point.getKey());
            md.append("| ").append(size).append(" |");
            for (String engine : engines) {
                OptionalDouble mean = geomeans.getOrDefault(engine, OptionalDouble.empty());
                md.append(' ').append(mean.isPresent() ? String.format(Locale.ROOT, "%.2f", mean.getAsDouble()) : "-")
                        .append(" |");
                if (mean.isPresent()) {
                    sizes.computeIfAbsent(engine, e -> new ArrayList<>()).add(point.getKey());
                    means.computeIfAbsent(engine, e -> new ArrayList<>()).add(mean.getAsDouble());
                }
            }
            OptionalDouble base = geomeans.getOrDefault(BASE, OptionalDouble.empty());
            for (String engine : others) {
                OptionalDouble other = geomeans.getOrDefault(engine, OptionalDouble.empty());
                String ratio = other.isPresent() && base.isPresent()
                        ? String.format(Locale.ROOT, "%.2f", other.getAsDouble() / base.getAsDouble()) : "-";
                md.append(' ').append(ratio).append(" |");
                ratioLines.add(engine + "_vs_datampi_geomean_at_" + size + "=" + ratio);
            }
            engines.forEach(engine -> md.append(' ').append(peaks.containsKey(engine)
                    ? String.format(Locale.ROOT, "%,d", peaks.get(engine)) : "-").append(" |"));
            md.append('\n');
        }
        md.append("\nEach engine's geometric mean of per-workload medians over the workloads every engine completed at "
                + "that size; peak MB is the resident memory of the engine's whole process tree.\n");

        Path out = Files.createDirectories(Path.of(options.get("--out")));
        Path chart = out.resolve("curve.png");
        writeChart(options.get("--title"), sizeLabel, sizes, means, chart);
        String ratios = "```\n" + String.join("\n", ratioLines) + "\n```\n";
        Files.writeString(out.resolve("curve.md"), "# " + options.get("--title") + "\n\n" + md
                + "\n![chart](curve.png)\n\n" + ratios, StandardCharsets.UTF_8);
        System.out.println(md);
        System.out.print(ratios);
        if (options.find("--record").isPresent()) {
            BenchmarkDriver.record(Path.of(options.get("--record")), options.get("--section"),
                    options.get("--command"), options.get("--title") + ": geometric mean of the per-workload "
                            + "medians against the size of the data, log-log.", md.toString(), ratios,
                    Optional.of(chart));
        }
    }

    private static void writeChart(String title, String sizeLabel, Map<String, List<Double>> sizes,
            Map<String, List<Double>> means, Path png) throws IOException {
        XYChart chart = new XYChartBuilder().width(800).height(500).title(title).xAxisTitle(sizeLabel + " (log)")
                .yAxisTitle("geometric mean s (log, lower is better)").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        for (String engine : means.keySet()) {
            chart.addSeries(engine, sizes.get(engine), means.get(engine)).setMarker(SeriesMarkers.CIRCLE);
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value)
                : String.valueOf(value).replaceAll("0+$", "");
    }
}
