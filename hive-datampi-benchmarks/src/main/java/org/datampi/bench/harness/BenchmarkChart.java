package org.datampi.bench.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/** The report's bar chart: median seconds per workload, one bar per engine. */
final class BenchmarkChart {
    private BenchmarkChart() {
    }

    /** Writes the chart; returns false, writing nothing, when no engine has a time to show. */
    static boolean write(String title, List<String> workloads, List<EngineResults> engines, Path png)
            throws IOException {
        if (workloads.isEmpty()) {
            return false;
        }
        CategoryChart chart = new CategoryChartBuilder().width(Math.max(800, 70 * workloads.size() + 200)).height(500)
                .title(title).xAxisTitle("").yAxisTitle("median seconds (lower is better)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setAvailableSpaceFill(0.8);
        for (EngineResults engine : engines) {
            Map<String, OptionalDouble> medians = engine.medians();
            List<Double> seconds = new ArrayList<>();
            for (String workload : workloads) {
                seconds.add(medians.getOrDefault(workload, OptionalDouble.empty()).orElse(0));
            }
            chart.addSeries(engine.engine(), workloads, seconds);
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        return true;
    }
}
