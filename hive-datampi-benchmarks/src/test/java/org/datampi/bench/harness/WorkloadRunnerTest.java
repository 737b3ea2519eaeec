package org.datampi.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** What a runner going on with an interrupted run (--continue true) keeps of the timings it finds. */
class WorkloadRunnerTest {
    private static final List<Workload> WORKLOADS = List.of(workload("q1"), workload("q2"), workload("q3"),
            workload("q4"));

    @Test
    void aWorkloadWithAllItsRunsTimedAndSuccessfulIsKept() {
        List<String> csv = List.of(Timing.CSV_HEADER, line("q1", 1, true), line("q1", 2, true), line("q2", 1, true));

        assertEquals(List.of(line("q1", 1, true), line("q1", 2, true)), WorkloadRunner.keptRuns(csv, WORKLOADS, 2),
                "q2 has one run of two: it runs again, both runs");
        assertEquals(List.of(line("q2", 1, true)), WorkloadRunner.keptRuns(csv, WORKLOADS, 1),
                "with one run asked for, q1's two are not that run's");
    }

    @Test
    void aFailedRunOrAWorkloadNotAskedForRunsAgain() {
        List<String> csv = List.of(Timing.CSV_HEADER, line("q1", 1, false), line("q3", 1, true), line("q9", 1, true));

        assertEquals(List.of(line("q3", 1, true)), WorkloadRunner.keptRuns(csv, WORKLOADS, 1),
                "q1 failed and q9 is not among the workloads");
    }

    @Test
    void keptRunsComeInTheWorkloadsOrderAndNothingIsKeptOfAnEmptyFile() {
        List<String> csv = List.of(Timing.CSV_HEADER, line("q4", 1, true), line("q2", 1, true));

        assertEquals(List.of(line("q2", 1, true), line("q4", 1, true)), WorkloadRunner.keptRuns(csv, WORKLOADS, 1));
        assertEquals(List.of(), WorkloadRunner.keptRuns(List.of(Timing.CSV_HEADER), WORKLOADS, 1));
        assertEquals(List.of(), WorkloadRunner.keptRuns(List.of(), WORKLOADS, 1));
    }

    private static String line(String workload, int run, boolean ok) {
        return new Timing(workload, "tez-yarn", run, 10 + run, 5, ok, 1.5).toCsv();
    }

    private static Workload workload(String name) {
        return new Workload(name, List.of("SELECT 1"), Optional.empty());
    }
}
