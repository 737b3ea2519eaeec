package org.datampi.bench.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;

class LinkSamplesTest {
    /** Two hosts' counters: dmp1 sends 10 MB a second for the first second, then 1 MB; dmp2 5 MB a second. */
    private static final LinkSamples SAMPLES = new LinkSamples(List.of(
            sample(1_000, 0, 0), sample(1_100, 1_000_000, 500_000), sample(1_500, 5_000_000, 2_500_000),
            sample(2_000, 10_000_000, 5_000_000), sample(2_500, 10_500_000, 7_500_000),
            sample(3_000, 11_000_000, 10_000_000)));

    private static LinkSamples.Sample sample(long millis, long dmp1, long dmp2) {
        return new LinkSamples.Sample(millis, List.of(dmp1, dmp2));
    }

    @Test
    void theBusiestHostIsTheOneThatSentTheMostInTheWindowCoveredWhole() {
        assertEquals(Optional.of(new LinkSamples.Busiest(0, 11_000_000)), SAMPLES.busiest(1_000, 3_000));
        assertEquals(Optional.of(new LinkSamples.Busiest(1, 5_000_000)), SAMPLES.busiest(2_000, 3_000),
                "in the last second dmp2 sent the most");
        // From the last sample at or before 1,050 (1,000) to the first at or after 1,450 (1,500).
        assertEquals(Optional.of(new LinkSamples.Busiest(0, 5_000_000)), SAMPLES.busiest(1_050, 1_450));
        assertEquals(Optional.empty(), SAMPLES.busiest(500, 3_000), "the samples do not cover the window");
    }

    @Test
    void aHostsPeakIsItsHighestRateOverAStretchOfTheWindowsLength() {
        assertEquals(10e6, SAMPLES.peakRate(0, 1_000, 3_000, 1_000).getAsDouble(), 1, "dmp1's first second");
        assertEquals(1e6, SAMPLES.peakRate(0, 2_000, 3_000, 1_000).getAsDouble(), 1, "dmp1's second second");
        assertEquals(5e6, SAMPLES.peakRate(1, 1_000, 3_000, 1_000).getAsDouble(), 1, "dmp2's steady rate");
        assertEquals(OptionalDouble.empty(), SAMPLES.peakRate(0, 2_500, 3_000, 1_000),
                "no second-long stretch within the window");
        assertThrows(IllegalArgumentException.class, () -> SAMPLES.peakRate(0, 1_000, 3_000, 0));
        assertThrows(IllegalArgumentException.class, () -> new LinkSamples(List.of(sample(2, 0, 0),
                sample(1, 0, 0))), "samples out of order");
    }

    @Test
    void theSamplesAreWrittenAsCsv() {
        assertEquals(List.of("epoch_millis,dmp1,dmp2", "1000,0,0", "1100,1000000,500000"),
                new LinkSamples(SAMPLES.samples().subList(0, 2)).csv(List.of("dmp1", "dmp2")));
    }
}
