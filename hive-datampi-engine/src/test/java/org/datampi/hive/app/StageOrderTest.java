package org.datampi.hive.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;

import org.datampi.hive.dag.DagEdge;
import org.datampi.hive.dag.DagJob;
import org.datampi.hive.dag.TestDags;
import org.junit.jupiter.api.Test;

/** Which stage a rank runs a task of next: the first ready one, in the DAG's order (vertices side by side). */
class StageOrderTest {
    private static final IntPredicate NONE_AWAIT_SPLITS = stage -> false;

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
        assertEquals(0, DataMPIDagApplication.nextStage(dag, new boolean[4], Set.<Integer>of()::contains,
                NONE_AWAIT_SPLITS));
        // This rank is done with Map 1, another rank is not: Reducer 2 waits, Map 3 is ready.
        assertEquals(2, DataMPIDagApplication.nextStage(dag, new boolean[] {true, false, false, false},
                Set.<Integer>of()::contains, NONE_AWAIT_SPLITS));
        // Every rank ended Map 1: Reducer 2 comes first again.
        assertEquals(1, DataMPIDagApplication.nextStage(dag, new boolean[] {true, false, false, false},
                Set.of(0)::contains, NONE_AWAIT_SPLITS));
        // Map 5 waits for the events of Map 3 from every rank.
        assertEquals(-1, DataMPIDagApplication.nextStage(dag, new boolean[] {true, true, true, false},
                Set.of(0, 1)::contains, NONE_AWAIT_SPLITS));
        assertEquals(3, DataMPIDagApplication.nextStage(dag, new boolean[] {true, true, true, false},
                Set.of(0, 1, 2)::contains, NONE_AWAIT_SPLITS));
    }

    /**
     * Rank 0 takes up a pruned vertex whose splits are still being made only when nothing else is ready: Map 5 and
     * Reducer 2 are both ready, Map 5 comes first in the DAG's order.
     */
    @Test
    void aVertexWhoseSplitsAreBeingMadeComesAfterEveryOtherReadyOne() {
        DagJob dag = new DagJob("hive_query_1", List.of(TestDags.vertex("Map 3", 0, "date_dim", 1),
                TestDags.deferred("Map 5", 1, "web_sales", "Map 3"), TestDags.vertex("Map 1", 2, "store_sales", 4),
                TestDags.vertex("Reducer 2", 3, "", 2)),
                List.of(new DagEdge("Map 1", "Map 1", "Reducer 2", DagEdge.Routing.SORTED, 0, 2)), List.of(), true);
        boolean[] ended = {true, false, true, false};
        assertEquals(3, DataMPIDagApplication.nextStage(dag, ended, Set.of(0, 2)::contains, Set.of(1)::contains),
                "Reducer 2 while Map 5's splits are being made");
        assertEquals(1, DataMPIDagApplication.nextStage(dag, ended, Set.of(0, 2)::contains, NONE_AWAIT_SPLITS),
                "Map 5 once they are made");
        assertEquals(1, DataMPIDagApplication.nextStage(dag, new boolean[] {true, false, true, true},
                Set.of(0, 2, 3)::contains, Set.of(1)::contains), "Map 5, awaited, when nothing else is ready");
    }

    @Test
    void withoutConcurrentVerticesARankWaitsForTheNextStageInOrder() {
        DagJob dag = dag(false);
        assertEquals(-1, DataMPIDagApplication.nextStage(dag, new boolean[] {true, false, false, false},
                Set.<Integer>of()::contains, NONE_AWAIT_SPLITS), "Reducer 2 is next, and not ready");
        assertEquals(1, DataMPIDagApplication.nextStage(dag, new boolean[] {true, false, false, false},
                Set.of(0)::contains, NONE_AWAIT_SPLITS));
    }
}
