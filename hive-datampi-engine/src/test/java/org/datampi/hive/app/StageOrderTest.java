package org.datampi.hive.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;

import org.datampi.hive.dag.DagEdge;
import org.datampi.hive.dag.DagJob;
import org.datampi.hive.dag.TestDags;
import org.junit.jupiter.api.Test;

/** Which stage a rank runs a task of next: the first ready one, in the DAG's order (vertices side by side). */
class StageOrderTest {
    /** Map 1 feeds Reducer 2; Map 3 is independent of both; Map 5 is pruned by Map 3's events. */
    private static DagJob dag(boolean concurrent) {
        return new DagJob("hive_query_1", List.of(TestDags.vertex("Map 1", 0, "store_sales", 4),
                TestDags.vertex("Reducer 2", 1, "", 2), TestDags.vertex("Map 3", 2, "date_dim", 1),
                TestDags.deferred("Map 5", 3, "web_sales", "Map 3")),
                List.of(new DagEdge("Map 1", "Map 1", "Reducer 2", DagEdge.Routing.SORTED, 0, 2)), List.of(),
                concurrent);
    }

    @Test
    void aRankRunsTheFirstReadyStageInTheDagsOrder() {
        DagJob dag = dag(true);
        assertEquals(0, DataMPIDagApplication.nextStage(dag, new boolean[4], Set.<Integer>of()::contains));
        // This rank is done with Map 1, another rank is not: Reducer 2 waits, Map 3 is ready.
        assertEquals(2, DataMPIDagApplication.nextStage(dag, new boolean[] {true, false, false, false},
                Set.<Integer>of()::contains));
        // Every rank ended Map 1: Reducer 2 comes first again.
        assertEquals(1, DataMPIDagApplication.nextStage(dag, new boolean[] {true, false, false, false},
                Set.of(0)::contains));
        // Map 5 waits for the events of Map 3 from every rank.
        assertEquals(-1, DataMPIDagApplication.nextStage(dag, new boolean[] {true, true, true, false},
                Set.of(0, 1)::contains));
        assertEquals(3, DataMPIDagApplication.nextStage(dag, new boolean[] {true, true, true, false},
                Set.of(0, 1, 2)::contains));
    }

    @Test
    void withoutConcurrentVerticesARankWaitsForTheNextStageInOrder() {
        DagJob dag = dag(false);
        assertEquals(-1, DataMPIDagApplication.nextStage(dag, new boolean[] {true, false, false, false},
                Set.<Integer>of()::contains), "Reducer 2 is next, and not ready");
        assertEquals(1, DataMPIDagApplication.nextStage(dag, new boolean[] {true, false, false, false},
                Set.of(0)::contains));
    }
}
