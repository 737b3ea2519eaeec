package org.datampi.hive.dag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.tez.dag.api.records.DAGProtos.DAGPlan;
import org.apache.tez.dag.api.records.DAGProtos.EdgePlan;
import org.apache.tez.dag.api.records.DAGProtos.PlanEdgeDataMovementType;
import org.apache.tez.dag.api.records.DAGProtos.PlanGroupInputEdgeInfo;
import org.apache.tez.dag.api.records.DAGProtos.PlanVertexGroupInfo;
import org.apache.tez.dag.api.records.DAGProtos.RootInputLeafOutputProto;
import org.apache.tez.dag.api.records.DAGProtos.TezEntityDescriptorProto;
import org.apache.tez.dag.api.records.DAGProtos.VertexPlan;
import org.junit.jupiter.api.Test;

/** How a DAG plan's edges become streams of the shuffle: partitions, routing, unions, refusals. */
class EdgeRoutingTest {
    private static final String GROUPED = "org.apache.tez.runtime.library.input.OrderedGroupedKVInput";
    private static final String UNORDERED = "org.apache.tez.runtime.library.input.UnorderedKVInput";

    private static VertexPlan vertex(String name, boolean readsSplits) {
        VertexPlan.Builder vertex = VertexPlan.newBuilder().setName(name);
        if (readsSplits) {
            vertex.addInputs(RootInputLeafOutputProto.newBuilder().setName("table"));
        }
        return vertex.buildPartial();
    }

    private static EdgePlan edge(String from, String to, PlanEdgeDataMovementType movement, String input) {
        return EdgePlan.newBuilder().setInputVertexName(from).setOutputVertexName(to).setDataMovementType(movement)
                .setEdgeDestination(TezEntityDescriptorProto.newBuilder().setClassName(input)).buildPartial();
    }

    private static Map<String, List<DagVertex.VertexTask>> tasks(Object... nameAndCount) {
        Map<String, List<DagVertex.VertexTask>> tasks = new HashMap<>();
        for (int i = 0; i < nameAndCount.length; i += 2) {
            tasks.put((String) nameAndCount[i], Collections.nCopies((Integer) nameAndCount[i + 1],
                    new DagVertex.VertexTask(new byte[0], List.of())));
        }
        return tasks;
    }

    /**
     * Map 3 broadcasts to Map 1 (a map join's table), Map 1 sends sorted to Reducer 2 (3 tasks), and the union of
     * Map 4 and Map 5 sends unsorted to Reducer 6 (2 tasks): each edge gets its own partitions, the union's members
     * share theirs.
     */
    @Test
    void eachEdgeGetsItsPartitionsAndAUnionsMembersShareThem() throws HiveException {
        DAGPlan plan = DAGPlan.newBuilder().setName("dag")
                .addVertex(vertex("Map 1", true)).addVertex(vertex("Reducer 2", false))
                .addVertex(vertex("Map 3", true)).addVertex(vertex("Map 4", true))
                .addVertex(vertex("Map 5", true)).addVertex(vertex("Reducer 6", false))
                .addEdge(edge("Map 3", "Map 1", PlanEdgeDataMovementType.BROADCAST, UNORDERED))
                .addEdge(edge("Map 1", "Reducer 2", PlanEdgeDataMovementType.SCATTER_GATHER, GROUPED))
                .addEdge(edge("Map 4", "Reducer 6", PlanEdgeDataMovementType.SCATTER_GATHER, UNORDERED))
                .addEdge(edge("Map 5", "Reducer 6", PlanEdgeDataMovementType.SCATTER_GATHER, UNORDERED))
                .addVertexGroups(PlanVertexGroupInfo.newBuilder().setGroupName("Union 7").addGroupMembers("Map 4")
                        .addGroupMembers("Map 5").addEdgeMergedInputs(PlanGroupInputEdgeInfo.newBuilder()
                                .setDestVertexName("Reducer 6").buildPartial()).buildPartial())
                .buildPartial();

        List<DagEdge> edges = EdgeRouting.route(plan, tasks("Map 1", 4, "Reducer 2", 3, "Map 3", 1, "Map 4", 2,
                "Map 5", 1, "Reducer 6", 2), Set.of(), Map.of(), 2);

        assertEquals(List.of(
                new DagEdge("Map 3", "Map 3", "Map 1", DagEdge.Routing.BROADCAST, 0, 2),
                new DagEdge("Map 1", "Map 1", "Reducer 2", DagEdge.Routing.SORTED, 2, 3),
                new DagEdge("Map 4", "Union 7", "Reducer 6", DagEdge.Routing.UNSORTED, 5, 2),
                new DagEdge("Map 5", "Union 7", "Reducer 6", DagEdge.Routing.UNSORTED, 5, 2)), edges);
    }

    /**
     * Reducer 2 forwards to Reducer 3 over a one-to-one edge (3 tasks each): one partition per task, each source task
     * sending to its own. Map 4 (1 task), Map 5 (3 tasks) and Map 6 (2 tasks) meet in Reducer 7's cross product: Map 5,
     * the source of most tasks, is split over Reducer 7's 2 tasks, the others broadcast to each rank.
     */
    @Test
    void oneToOneEdgesFeedTheirOwnTaskAndACrossProductSplitsItsLargestSource() throws HiveException {
        DAGPlan plan = DAGPlan.newBuilder().setName("dag")
                .addVertex(vertex("Reducer 2", false)).addVertex(vertex("Reducer 3", false))
                .addVertex(vertex("Map 4", true)).addVertex(vertex("Map 5", true)).addVertex(vertex("Map 6", true))
                .addVertex(vertex("Reducer 7", false))
                .addEdge(edge("Reducer 2", "Reducer 3", PlanEdgeDataMovementType.ONE_TO_ONE, UNORDERED))
                .addEdge(crossProduct("Map 4", "Reducer 7")).addEdge(crossProduct("Map 5", "Reducer 7"))
                .addEdge(crossProduct("Map 6", "Reducer 7"))
                .buildPartial();

        List<DagEdge> edges = EdgeRouting.route(plan, tasks("Reducer 2", 3, "Reducer 3", 3, "Map 4", 1, "Map 5", 3,
                "Map 6", 2, "Reducer 7", 2), Set.of(), Map.of(), 2);

        assertEquals(List.of(
                new DagEdge("Reducer 2", "Reducer 2", "Reducer 3", DagEdge.Routing.ONE_TO_ONE, 0, 3),
                new DagEdge("Map 4", "Map 4", "Reducer 7", DagEdge.Routing.BROADCAST, 3, 2),
                new DagEdge("Map 5", "Map 5", "Reducer 7", DagEdge.Routing.UNSORTED, 5, 2),
                new DagEdge("Map 6", "Map 6", "Reducer 7", DagEdge.Routing.BROADCAST, 7, 2)), edges);
    }

    /**
     * A cross product's input of most tasks is split: the union of Map 1 (1 task) and Map 2 (2 tasks) outweighs Map 3
     * (2 tasks), and both of its members are split alike; a scan whose splits pruning defers (Map 5, no tasks yet)
     * counts as one task per rank and outweighs Map 4 (1 task).
     */
    @Test
    void aCrossProductSplitsTheInputOfMostTasksAUnionsMembersAddedUpAndAPrunedScanAsOnePerRank()
            throws HiveException {
        DAGPlan plan = DAGPlan.newBuilder().setName("dag")
                .addVertex(vertex("Map 1", true)).addVertex(vertex("Map 2", true)).addVertex(vertex("Map 3", true))
                .addVertex(vertex("Reducer 6", false)).addVertex(vertex("Map 4", true))
                .addVertex(vertex("Map 5", true)).addVertex(vertex("Reducer 7", false))
                .addEdge(crossProduct("Map 1", "Reducer 6")).addEdge(crossProduct("Map 2", "Reducer 6"))
                .addEdge(crossProduct("Map 3", "Reducer 6"))
                .addEdge(crossProduct("Map 4", "Reducer 7")).addEdge(crossProduct("Map 5", "Reducer 7"))
                .addVertexGroups(PlanVertexGroupInfo.newBuilder().setGroupName("Union 8").addGroupMembers("Map 1")
                        .addGroupMembers("Map 2").addEdgeMergedInputs(PlanGroupInputEdgeInfo.newBuilder()
                                .setDestVertexName("Reducer 6").buildPartial()).buildPartial())
                .buildPartial();

        List<DagEdge> edges = EdgeRouting.route(plan, tasks("Map 1", 1, "Map 2", 2, "Map 3", 2, "Reducer 6", 2,
                "Map 4", 1, "Map 5", 0, "Reducer 7", 2), Set.of("Map 5"), Map.of(), 2);

        assertEquals(List.of(
                new DagEdge("Map 1", "Union 8", "Reducer 6", DagEdge.Routing.UNSORTED, 0, 2),
                new DagEdge("Map 2", "Union 8", "Reducer 6", DagEdge.Routing.UNSORTED, 0, 2),
                new DagEdge("Map 3", "Map 3", "Reducer 6", DagEdge.Routing.BROADCAST, 2, 2),
                new DagEdge("Map 4", "Map 4", "Reducer 7", DagEdge.Routing.BROADCAST, 4, 2),
                new DagEdge("Map 5", "Map 5", "Reducer 7", DagEdge.Routing.UNSORTED, 6, 2)), edges);
    }

    private static EdgePlan crossProduct(String from, String to) {
        return edge(from, to, PlanEdgeDataMovementType.CUSTOM, UNORDERED).toBuilder()
                .setEdgeManager(TezEntityDescriptorProto.newBuilder()
                        .setClassName("org.apache.tez.runtime.library.cartesianproduct.CartesianProductEdgeManager"))
                .buildPartial();
    }

    @Test
    void aBucketMapJoinsEdgeSendsEachBucketToTheTasksThatJoinIt() throws HiveException {
        // Map 2 reads the big table's splits (4 buckets: tasks 0 and 1 join bucket 0, task 2 bucket 1, task 3 bucket 3,
        // none bucket 2); Map 1 is the small table, and Reducer 3 reads Map 2 as usual.
        DAGPlan plan = DAGPlan.newBuilder().setName("dag").addVertex(vertex("Map 1", true))
                .addVertex(vertex("Map 2", true)).addVertex(vertex("Reducer 3", false))
                .addEdge(bucketEdge("Map 1", "Map 2"))
                .addEdge(edge("Map 2", "Reducer 3", PlanEdgeDataMovementType.SCATTER_GATHER, GROUPED)).buildPartial();
        List<List<Integer>> buckets = List.of(List.of(0, 1), List.of(2), List.of(), List.of(3));

        List<DagEdge> edges = EdgeRouting.route(plan, tasks("Map 1", 2, "Map 2", 4, "Reducer 3", 2), Set.of(),
                Map.of("Map 2", buckets), 2);

        assertEquals(List.of(new DagEdge("Map 1", "Map 1", "Map 2", DagEdge.Routing.BUCKET, 0, 4, buckets),
                new DagEdge("Map 2", "Map 2", "Reducer 3", DagEdge.Routing.SORTED, 4, 2)), edges);
        // The source's partitioner picks among the buckets; each task of the big table reads its own partition.
        assertEquals(4, edges.get(0).sourcePartitions());
        assertEquals(2, edges.get(1).sourcePartitions());

        // The small side a union (Hive plans one into a bucket map join as into any other): its members send to
        // the same partitions, by the same routing table.
        DAGPlan union = DAGPlan.newBuilder().setName("dag").addVertex(vertex("Map 1", true))
                .addVertex(vertex("Map 3", true)).addVertex(vertex("Map 2", true))
                .addEdge(bucketEdge("Map 1", "Map 2")).addEdge(bucketEdge("Map 3", "Map 2"))
                .addVertexGroups(PlanVertexGroupInfo.newBuilder().setGroupName("Union 4").addGroupMembers("Map 1")
                        .addGroupMembers("Map 3").addEdgeMergedInputs(PlanGroupInputEdgeInfo.newBuilder()
                                .setDestVertexName("Map 2").buildPartial()).buildPartial())
                .buildPartial();
        assertEquals(List.of(new DagEdge("Map 1", "Union 4", "Map 2", DagEdge.Routing.BUCKET, 0, 4, buckets),
                new DagEdge("Map 3", "Union 4", "Map 2", DagEdge.Routing.BUCKET, 0, 4, buckets)),
                EdgeRouting.route(union, tasks("Map 1", 1, "Map 3", 2, "Map 2", 4), Set.of(),
                        Map.of("Map 2", buckets), 2));
    }

    private static EdgePlan bucketEdge(String from, String to) {
        return edge(from, to, PlanEdgeDataMovementType.CUSTOM, UNORDERED).toBuilder()
                .setEdgeManager(TezEntityDescriptorProto.newBuilder()
                        .setClassName("org.apache.hadoop.hive.ql.exec.tez.CustomPartitionEdge"))
                .buildPartial();
    }

    @Test
    void edgesTheRanksDoNotRunAreRefusedNamingThem() {
        DAGPlan bucketMapJoin = DAGPlan.newBuilder().setName("dag").addVertex(vertex("Map 1", true))
                .addVertex(vertex("Map 2", true)).addEdge(bucketEdge("Map 1", "Map 2")).buildPartial();
        HiveException noRouting = assertThrows(HiveException.class,
                () -> EdgeRouting.route(bucketMapJoin, tasks("Map 1", 1, "Map 2", 1), Set.of(), Map.of(), 2));
        assertEquals("The bucket map join's edge Map 1 -> Map 2 leads to a vertex without a bucket routing table",
                noRouting.getMessage());

        DAGPlan otherCustom = DAGPlan.newBuilder().setName("dag").addVertex(vertex("Map 1", true))
                .addVertex(vertex("Reducer 2", false))
                .addEdge(edge("Map 1", "Reducer 2", PlanEdgeDataMovementType.CUSTOM, UNORDERED).toBuilder()
                        .setEdgeManager(TezEntityDescriptorProto.newBuilder().setClassName("org.example.OtherEdge"))
                        .buildPartial())
                .buildPartial();
        HiveException other = assertThrows(HiveException.class,
                () -> EdgeRouting.route(otherCustom, tasks("Map 1", 1, "Reducer 2", 1), Set.of(), Map.of(), 2));
        assertEquals("datampi's DAG mode does not run the custom edge Map 1 -> Reducer 2 (org.example.OtherEdge) yet",
                other.getMessage());

        DAGPlan sortedIntoScan = DAGPlan.newBuilder().setName("dag").addVertex(vertex("Map 1", true))
                .addVertex(vertex("Map 2", true))
                .addEdge(edge("Map 1", "Map 2", PlanEdgeDataMovementType.SCATTER_GATHER, GROUPED)).buildPartial();
        HiveException intoScan = assertThrows(HiveException.class,
                () -> EdgeRouting.route(sortedIntoScan, tasks("Map 1", 1, "Map 2", 1), Set.of(), Map.of(), 2));
        assertEquals("datampi's DAG mode sends only broadcast edges and bucket map joins' edges to a vertex that reads "
                + "splits; Map 1 -> Map 2 is SCATTER_GATHER", intoScan.getMessage());
    }
}
