package org.datampi.bench.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class ClusterTpchReportTest {
    /** dmp1 sends 100 MB in a second of q1's run, dmp2 10 MB; q2's run is shorter than a second. */
    private static final LinkSamples SAMPLES = new LinkSamples(List.of(
            new LinkSamples.Sample(1_000, List.of(0L, 0L)), new LinkSamples.Sample(2_000, List.of(100_000_000L,
                    10_000_000L)), new LinkSamples.Sample(2_500, List.of(100_000_000L, 10_000_000L))));

    @Test
    void eachShapedRateGetsItsSlowdownAndTheBusiestHostsPeakShareOfTheLink() {
        LinkRun off = new LinkRun(0, Map.of("q1", 2.0, "q2", 1.0), Map.of("q1", new RunConsole.Window(1_000, 2_000)),
                Map.of("q1", 200_000_000L, "q2", 0L), new LinkSamples(List.of()));
        LinkRun shaped = new LinkRun(0, Map.of("q1", 4.0, "q2", 1.0), Map.of("q1", new RunConsole.Window(1_000,
                2_000), "q2", new RunConsole.Window(2_000, 2_500)), Map.of(), SAMPLES);
        ClusterTpchReport report = ClusterTpchReport.of("settings", List.of("q1", "q2"), List.of("off", "1gbit"),
                Map.of("off", off, "1gbit", shaped), List.of());
        assertEquals("1gbit_vs_off_geomean=1.41\npeak_link_share_1gbit=0.80\n", report.keyLines(),
                "q1 twice as slow, q2 the same; dmp1's 100 MB/s of 125");
        assertTrue(report.body().contains("| q1 | 2.00 | 4.00 | 2.00 | 200.0 | 100.0 | 100.0 | 80% |"),
                report.body());
        assertTrue(report.body().contains("| q2 | 1.00 | 1.00 | 1.00 | 0.0 | 0.0 | - | - |"),
                "no second-long stretch in q2's run: no peak\n" + report.body());
        assertTrue(report.body().contains("equal DuckDB's"), report.body());
    }

    @Test
    void aFailedQueryIsShownAsFailedAndLeftOutOfTheMeans() {
        LinkRun off = new LinkRun(1, Map.of("q1", 2.0), Map.of(), Map.of(), new LinkSamples(List.of()));
        ClusterTpchReport report = ClusterTpchReport.of("settings", List.of("q1", "q2"), List.of("off"),
                Map.of("off", off), List.of("q2 at link off: rows differ"));
        assertTrue(report.body().contains("| q2 | failed | - |"), report.body());
        assertTrue(report.body().contains("q2 at link off: rows differ"), report.body());
        assertTrue(report.body().contains("| **geometric mean** | **2.00** |"), report.body());
    }

    @Test
    void ratesAreReadAsClusterSimLinkTakesThem() {
        assertEquals(125e6, ClusterTpchBench.bytesPerSecond("1gbit"), 1);
        assertEquals(12.5e6, ClusterTpchBench.bytesPerSecond("100mbit"), 1);
        assertEquals(Double.POSITIVE_INFINITY, ClusterTpchBench.bytesPerSecond("off"));
        assertThrows(IllegalArgumentException.class, () -> ClusterTpchBench.bytesPerSecond("1.5gbit"));
        assertThrows(IllegalArgumentException.class, () -> ClusterTpchBench.bytesPerSecond("fast"));
    }
}
