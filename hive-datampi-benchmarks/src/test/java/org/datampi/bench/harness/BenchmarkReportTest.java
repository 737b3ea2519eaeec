package org.datampi.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchmarkReportTest {
    @TempDir
    Path out;

    /**
     * Two workloads: whole runs of 2 and 3 s against 4 and 9 s are a ratio of sqrt(2 * 3) = 2.45; less 1 s of Hive's
     * compile each on datampi and 1 and 3 s on Tez, the engines' own 1 and 2 s against 3 and 6 s one of
     * sqrt(3 * 3) = 3.00.
     */
    private BenchmarkReport report() {
        EngineResults datampi = new EngineResults("datampi", List.of(
                new Timing("q1", "datampi", 1, 2, 10, true, 1),
                new Timing("q2", "datampi", 1, 3, 10, true, 1)), 100, 0, out.resolve("datampi"));
        EngineResults tez = new EngineResults("tez-yarn", List.of(
                new Timing("q1", "tez-yarn", 1, 4, 10, true, 1),
                new Timing("q2", "tez-yarn", 1, 9, 10, true, 3)), 200, 0, out.resolve("tez-yarn"));
        return new BenchmarkReport(List.of(datampi, tez));
    }

    @Test
    void ratiosOfWholeRunsAndOfTheEnginesOwnTime() {
        assertEquals(List.of("tez-yarn_vs_datampi_geomean=2.45", "tez-yarn_vs_datampi_geomean_after_compile=3.00"),
                report().ratioLines());
    }

    @Test
    void theSummarySaysWhatCompileTookOnEachEngine() throws IOException {
        String markdown = report().markdown(Map.of());
        assertTrue(markdown.contains("summed over those workloads' median runs: datampi 2.0 s, tez-yarn 4.0 s."),
                markdown);
        assertTrue(markdown.contains("each engine's own time: tez-yarn/datampi **3.00**."), markdown);
    }

    /** A timings.csv written before compile was recorded still reads; its ratio after compile is unknown. */
    @Test
    void runsRecordedBeforeCompileWasHaveNoRatioAfterIt() throws IOException {
        Timing old = Timing.fromCsv("q1,datampi,1,2.500,10,ok");
        assertEquals(2.5, old.seconds());
        assertTrue(Double.isNaN(old.compileSeconds()));
        BenchmarkReport report = new BenchmarkReport(List.of(
                new EngineResults("datampi", List.of(old), 100, 0, out.resolve("datampi")),
                new EngineResults("tez-yarn", List.of(Timing.fromCsv("q1,tez-yarn,1,5.000,10,ok")), 100, 0,
                        out.resolve("tez-yarn"))));
        assertEquals(List.of("tez-yarn_vs_datampi_geomean=2.00", "tez-yarn_vs_datampi_geomean_after_compile=-"),
                report.ratioLines());
        assertTrue(report.markdown(Map.of()).contains("datampi unknown, tez-yarn unknown"));
    }

    @Test
    void timingsKeepTheirCompileTimeThroughTimingsCsv() {
        Timing timing = new Timing("q14a", "datampi", 2, 12.5, 100, true, 3.25);
        assertEquals(timing, Timing.fromCsv(timing.toCsv()));
    }
}
