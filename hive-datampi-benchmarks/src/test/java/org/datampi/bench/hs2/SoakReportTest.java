package org.datampi.bench.hs2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** bin/hs2-soak's reading of jcmd's output and its growth arithmetic. */
class SoakReportTest {
    private static final long MB = 1024 * 1024;

    @Test
    void theHeapAfterGcIsTheUsedPartOfEveryGeneration() {
        String parallel = """
                 PSYoungGen      total 611840K, used 10485K [0x00000000d5580000, 0x0000000100000000)
                  eden space 524800K, 2% used [0x00000000d5580000,0x00000000d5fc0000,0x00000000f5600000)
                 ParOldGen       total 1398272K, used 21000K [0x0000000080000000, 0x00000000d5580000)
                 Metaspace       used 60000K, committed 61000K, reserved 1105920K
                """;
        assertEquals((10485 + 21000) * 1024L, JvmSample.heapUsedBytes(parallel));
        assertEquals(12345 * 1024L, JvmSample.heapUsedBytes(
                " garbage-first heap   total 262144K, used 12345K [0x0000000080000000, 0x0000000100000000)\n"));
        assertThrows(IllegalArgumentException.class, () -> JvmSample.heapUsedBytes("Metaspace used 60000K"));
    }

    @Test
    void loadedClassesAreThoseLoadedLessThoseUnloaded() {
        assertEquals(8400, JvmSample.loadedClasses("java.cls.loadedClasses=8500\njava.cls.sharedLoadedClasses=1200\n"
                + "java.cls.unloadedClasses=100\n"));
        assertThrows(IllegalArgumentException.class, () -> JvmSample.loadedClasses("sun.rt.createVmBeginTime=1\n"));
    }

    @Test
    void theRanksGrowthIsMeasuredOverTheLongestGroupFromTheBaselineOn() {
        // Group 1 (statements 50-150) grows from 40 MB at 100 to 48 MB at 150 (+20%); group 2, shorter, from 30 to 90.
        List<SoakSample> samples = List.of(sample(50, 1, 60, 26), sample(100, 1, 40, 26), sample(150, 1, 48, 27),
                sample(200, 2, 30, 26), sample(220, 2, 90, 26));
        Map<String, Double> growth = SoakReport.growth(samples, 100);
        assertEquals(20.0, growth.get("ranks_heap"), 1e-9);
        assertEquals(100.0 / 26, growth.get("ranks_threads"), 1e-9);
        assertEquals(List.of("ranks_heap +20.0%"), SoakReport.overBound(growth, 10));
        assertEquals(List.of(), SoakReport.overBound(growth, 25));
        // HiveServer2 over the whole run: 100 MB at statement 100, 136 MB at the last (220).
        assertEquals(36.0, growth.get("server_heap"), 1e-9);
    }

    @Test
    void aRiseThatFallsBackByTheLastSampleStillCounts() {
        List<SoakSample> samples = List.of(sample(100, 1, 40, 26), sample(150, 1, 50, 26), sample(200, 1, 41, 26));
        assertEquals(25.0, SoakReport.growth(samples, 100).get("ranks_heap"), 1e-9);
    }

    @Test
    void everyKindOfStatementHasItsPlace() {
        assertEquals(Hs2Soak.Step.TPCH, Hs2Soak.stepAt(1, 0));
        assertEquals(Hs2Soak.Step.UDF_SESSION, Hs2Soak.stepAt(25, 0));
        assertEquals(Hs2Soak.Step.UDF_SESSION, Hs2Soak.stepAt(100, 0));
        // 50 past each hundred is also a multiple of 25: the compile failure must win there, or it never runs.
        assertEquals(Hs2Soak.Step.COMPILE_FAILURE, Hs2Soak.stepAt(50, 0));
        assertEquals(Hs2Soak.Step.COMPILE_FAILURE, Hs2Soak.stepAt(950, 0));
        assertEquals(Hs2Soak.Step.CANCEL, Hs2Soak.stepAt(50, 50));
        assertEquals(Hs2Soak.Step.TPCH, Hs2Soak.stepAt(45, 0));
    }

    @Test
    void oneSampleMeasuresNoGrowth() {
        assertFalse(SoakReport.growth(List.of(sample(50, 1, 40, 26)), 100).containsKey("ranks_heap"));
    }

    /** A sample whose two ranks hold HEAP_MB (one of them a little less) and THREADS; the server grows 0.3 MB a run. */
    private static SoakSample sample(int statements, int group, long heapMb, int threads) {
        JvmSample server = new JvmSample(1, (70 + statements * 3 / 10) * MB, 900 * MB, 50, 300, 20_000);
        return new SoakSample(statements, group, Optional.of(server), List.of(
                new JvmSample(2, heapMb * MB, 800 * MB, threads, 211, 8400),
                new JvmSample(3, (heapMb - 1) * MB, 780 * MB, threads - 1, 210, 8390)), 0);
    }
}
