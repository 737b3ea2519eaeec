package org.datampi.hive.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.datampi.hive.dag.DagEdge;
import org.datampi.hive.dag.DagJob;
import org.datampi.hive.dag.TestDags;
import org.datampi.status.JobProgress;
import org.junit.jupiter.api.Test;

class DagProgressMonitorTest {
    /** Map 1 (4 tasks, handed out) and Map 3 (1 task) feed Reducer 2 (2 tasks, placed). */
    private static final DagJob DAG = new DagJob("hive_query_1", List.of(TestDags.vertex("Map 1", 0, "lineitem", 4),
            TestDags.vertex("Map 3", 2, "orders", 1), TestDags.vertex("Reducer 2", 1, "", 2)),
            List.of(new DagEdge("Map 1", "Map 1", "Reducer 2", DagEdge.Routing.SORTED, 0, 2),
                    new DagEdge("Map 3", "Map 3", "Reducer 2", DagEdge.Routing.SORTED, 2, 2)), List.of());

    private static JobProgress progress(JobProgress.Stage... stages) {
        return new JobProgress(0, 5, 0, 2, List.of(stages));
    }

    @Test
    void aRunningStageShowsEachVertexsTasksAsHiveOnTezDoes() {
        DagProgressMonitor monitor = DagProgressMonitor.of(DAG, progress(new JobProgress.Stage(2, 1, 4),
                new JobProgress.Stage(0, 0, 1), new JobProgress.Stage(0, 0, 2)), 1234L,
                DagProgressMonitor.State.RUNNING);

        assertEquals(List.of("VERTICES", "MODE", "STATUS", "TOTAL", "COMPLETED", "RUNNING", "PENDING", "FAILED",
                "KILLED"), monitor.headers());
        assertEquals(List.of(
                List.of("Map 1 .....", "O tasks", "RUNNING", "4", "2", "1", "1", "0", "0"),
                List.of("Map 3 ", "O tasks", "INITED", "1", "0", "0", "1", "0", "0"),
                List.of("Reducer 2 ", "A tasks", "INITED", "2", "0", "0", "2", "0", "0")), monitor.rows());
        assertEquals("VERTICES: 00/03", monitor.footerSummary());
        assertEquals(2.0 / 7, monitor.progressedPercentage(), 1e-9);
        assertEquals(1234L, monitor.startTime());
        assertEquals("RUNNING", monitor.executionStatus());
    }

    @Test
    void aPlacedVertexRunsOnceEveryInputIsComplete() {
        DagProgressMonitor waiting = DagProgressMonitor.of(DAG, progress(new JobProgress.Stage(4, 0, 4),
                new JobProgress.Stage(0, 1, 1), new JobProgress.Stage(0, 0, 2)), 0, DagProgressMonitor.State.RUNNING);
        assertEquals("INITED", waiting.rows().get(2).get(2));

        DagProgressMonitor running = DagProgressMonitor.of(DAG, progress(new JobProgress.Stage(4, 0, 4),
                new JobProgress.Stage(1, 0, 1), new JobProgress.Stage(1, 0, 2)), 0, DagProgressMonitor.State.RUNNING);
        assertEquals(List.of("Map 1 ..........", "O tasks", "SUCCEEDED", "4", "4", "0", "0", "0", "0"),
                running.rows().get(0));
        assertEquals(List.of("Reducer 2 ...", "A tasks", "RUNNING", "2", "1", "0", "1", "0", "0"),
                running.rows().get(2));
        assertEquals("VERTICES: 02/03", running.footerSummary());
    }

    @Test
    void aFailedOrKilledStageEndsItsUnfinishedVertices() {
        JobProgress last = progress(new JobProgress.Stage(4, 0, 4), new JobProgress.Stage(0, 1, 1),
                new JobProgress.Stage(0, 0, 2));

        DagProgressMonitor failed = DagProgressMonitor.of(DAG, last, 0, DagProgressMonitor.State.FAILED);
        assertEquals(List.of("SUCCEEDED", "FAILED", "FAILED"), failed.rows().stream().map(row -> row.get(2)).toList());
        assertEquals(List.of("Map 3 ", "O tasks", "FAILED", "1", "0", "0", "0", "0", "1"), failed.rows().get(1));
        assertEquals("FAILED", failed.executionStatus());

        DagProgressMonitor killed = DagProgressMonitor.of(DAG, last, 0, DagProgressMonitor.State.KILLED);
        assertEquals(List.of("SUCCEEDED", "KILLED", "KILLED"), killed.rows().stream().map(row -> row.get(2)).toList());
    }

    @Test
    void beforeTheFirstReportEveryVertexWaits() {
        DagProgressMonitor monitor = DagProgressMonitor.of(DAG, JobProgress.NONE, 0, DagProgressMonitor.State.RUNNING);
        assertEquals(List.of("INITED", "INITED", "INITED"), monitor.rows().stream().map(row -> row.get(2)).toList());
        assertEquals(List.of("4", "1", "2"), monitor.rows().stream().map(row -> row.get(6)).toList());
        assertEquals(0, monitor.progressedPercentage());
        assertEquals("Map 1: 0/4, Map 3: 0/1, Reducer 2: 0/2", DagProgressDisplay.vertexProgress(DAG, JobProgress.NONE));
    }

    /** A scan waiting for dynamic partition pruning is initializing, as Tez's vertex waiting for its initializer. */
    @Test
    void aPrunedScanIsInitializingUntilItsSplitsAreMade() {
        DagJob pruned = new DagJob("hive_query_1", List.of(TestDags.vertex("Map 2", 1, "date_dim", 1),
                TestDags.deferred("Map 1", 0, "store_sales", "Map 2")), List.of(), List.of());
        DagProgressMonitor waiting = DagProgressMonitor.of(pruned, progress(new JobProgress.Stage(1, 0, 1),
                new JobProgress.Stage(0, 0, 0)), 0, DagProgressMonitor.State.RUNNING);
        assertEquals(List.of("Map 1 ", "O tasks", "INITIALIZING", "0", "0", "0", "0", "0", "0"),
                waiting.rows().get(1));
        assertEquals("VERTICES: 01/02", waiting.footerSummary());
        assertEquals("Map 2: 1/1, Map 1: -/-", DagProgressDisplay.vertexProgress(pruned,
                progress(new JobProgress.Stage(1, 0, 1), new JobProgress.Stage(0, 0, 0))));

        DagProgressMonitor made = DagProgressMonitor.of(pruned, progress(new JobProgress.Stage(1, 0, 1),
                new JobProgress.Stage(0, 1, 3)), 0, DagProgressMonitor.State.RUNNING);
        assertEquals("RUNNING", made.rows().get(1).get(2));
        assertEquals("Map 2: 1/1, Map 1: 0(+1)/3", DagProgressDisplay.vertexProgress(pruned,
                progress(new JobProgress.Stage(1, 0, 1), new JobProgress.Stage(0, 1, 3))));
    }
}
