package org.datampi.bench.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class ClusterTpchBenchTest {
    /** Two hosts' counters every 100 ms: dmp1 sends 10 MB a second for its first second, dmp2 5 MB a second. */
    private static final LinkSamples SAMPLES = new LinkSamples(List.of(
            sample(1_000, 0, 0), sample(1_100, 1_000_000, 500_000), sample(1_500, 5_000_000, 2_500_000),
            sample(2_000, 10_000_000, 5_000_000), sample(2_500, 10_000_000, 7_500_000),
            sample(3_000, 10_000_000, 10_000_000)));

    private static LinkSamples.Sample sample(long millis, long dmp1, long dmp2) {
        return new LinkSamples.Sample(millis, List.of(dmp1, dmp2));
    }

    @Test
    void theBusiestHostsBytesCoverTheWindowWhole() {
        assertEquals(10_000_000, SAMPLES.busiestSent(1_000, 3_000), "dmp1 sent 10 MB, dmp2 10 MB: the most");
        assertEquals(5_000_000, SAMPLES.busiestSent(2_000, 3_000), "in the last second only dmp2 sent");
        // From the last sample at or before 1,050 (1,000) to the first at or after 1,450 (1,500).
        assertEquals(5_000_000, SAMPLES.busiestSent(1_050, 1_450));
        assertEquals(0, SAMPLES.busiestSent(500, 3_000), "the samples do not cover the window");
    }

    @Test
    void thePeakIsTheHighestRateOverAStretchOfTheWindowsLength() {
        assertEquals(10e6, SAMPLES.busiestRate(1_000, 3_000, 1_000), 1, "dmp1's first second");
        assertEquals(5e6, SAMPLES.busiestRate(2_000, 3_000, 1_000), 1, "dmp2's second second");
        assertEquals(0, SAMPLES.busiestRate(2_500, 3_000, 1_000), "no second-long stretch in the window");
        assertThrows(IllegalArgumentException.class, () -> SAMPLES.busiestRate(1_000, 3_000, 0));
        assertThrows(IllegalArgumentException.class, () -> new LinkSamples(List.of(sample(2, 0, 0),
                sample(1, 0, 0))), "samples out of order");
    }

    @Test
    void eachQuerysLastRunIsMarkedWithItsShuffledBytes() {
        AtomicLong clock = new AtomicLong(100);
        ClusterTpchBench.RunConsole console = new ClusterTpchBench.RunConsole(clock::getAndIncrement);
        List.of("bench: begin q5 warm-up 1",
                "Map 3             4         6,211        11,410     59,994,062       1,460,257        0 B         0 B"
                        + "   49.1 MB      -",
                "bench: q5 warm-up 1 on datampi: 3.10 s (Hive's compile 0.20 s), 5 rows",
                "bench: begin q5 run 1",
                "Map 3             4         6,211        11,410     59,994,062       1,460,257        0 B         0 B"
                        + "    2.0 MB      -",
                "Reducer 4         6         2,000         3,000        100,000              12     1.5 KB      0 B"
                        + "      512 B    3/6",
                "bench: q5 run 1 on datampi: 3.00 s (Hive's compile 0.20 s), 5 rows",
                "bench: begin q6 run 1").forEach(console);
        assertEquals(Map.of("q5", new ClusterTpchBench.Window(100, 101)), console.windows(),
                "the timed run's window; q6 has not ended");
        assertEquals(2 * 1024 * 1024 + 512L, console.shuffled().get("q5"), "the timed run's vertices only");
    }

    @Test
    void ratesAndSizesAreReadAsTcAndTheSummaryWriteThem() {
        assertEquals(125e6, ClusterTpchBench.bytesPerSecond("1gbit"), 1);
        assertEquals(12.5e6, ClusterTpchBench.bytesPerSecond("100mbit"), 1);
        assertEquals(Double.POSITIVE_INFINITY, ClusterTpchBench.bytesPerSecond("off"));
        assertThrows(IllegalArgumentException.class, () -> ClusterTpchBench.bytesPerSecond("fast"));
        assertThrows(IllegalArgumentException.class, () -> ClusterTpchBench.bytesPerSecond("xgbit"));
        assertEquals(1536, ClusterTpchBench.bytes("1.5", "K"));
        assertEquals(812, ClusterTpchBench.bytes("812", ""));
    }
}
