package org.datampi.bench.startup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.datampi.bench.startup.StartupBench.Measure;
import org.datampi.bench.startup.StartupBench.Mode;
import org.junit.jupiter.api.Test;

class StartupReportTest {
    @Test
    void mediansAndWithoutOverWith() {
        StartupReport report = new StartupReport(Map.of(
                Mode.WITHOUT, Map.of(Measure.SHELL, List.of(13.0, 12.0, 14.0), Measure.STAGE_QUERY, List.of(20.0, 18.0),
                        Measure.LAUNCH, List.of(4.5)),
                Mode.WITH, Map.of(Measure.SHELL, List.of(8.0, 6.0, 7.0), Measure.STAGE_QUERY, List.of(12.0, 12.0),
                        Measure.LAUNCH, List.of(3.0))));

        assertEquals(13.0 / 7.0, report.ratio(Measure.SHELL), 1e-9);
        assertEquals(19.0 / 12.0, report.ratio(Measure.STAGE_QUERY), 1e-9);
        assertEquals("shell_select_1_without_vs_with=1.86\none_stage_query_without_vs_with=1.58\n"
                + "group_launch_without_vs_with=1.50\n", report.ratioLines());
        assertEquals("| `SELECT 1` in a new shell | 13.00 | 7.00 | 1.86 |", report.table().lines().toList().get(2));
    }

    @Test
    void aMeasureWithoutRunsIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new StartupReport(Map.of(Mode.WITHOUT, Map.of(),
                Mode.WITH, Map.of())));
    }

    @Test
    void theLaunchIsReadFromTheStagesLine() {
        assertEquals(Optional.of(2.85), StartupBench.launchSeconds("x\ndatampi: Stage-1 job_datampi376998493_0001 "
                + "5.07 s: submit 0.65 s, launch 2.85 s, tasks 1.25 s, teardown 0.24 s, commit 0.07 s\n"));
        assertEquals(Optional.empty(), StartupBench.launchSeconds("datampi: Stage-1 job_datampi1_0001: Map 1"));
    }
}
