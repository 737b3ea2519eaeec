package org.datampi.hive.dag;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.tez.dag.api.records.DAGProtos.ConfigurationProto;
import org.apache.tez.dag.api.records.DAGProtos.DAGPlan;
import org.apache.tez.dag.api.records.DAGProtos.EdgePlan;
import org.apache.tez.dag.api.records.DAGProtos.PlanEdgeDataMovementType;
import org.apache.tez.dag.api.records.DAGProtos.PlanGroupInputEdgeInfo;
import org.apache.tez.dag.api.records.DAGProtos.PlanKeyValuePair;
import org.apache.tez.dag.api.records.DAGProtos.PlanVertexGroupInfo;
import org.apache.tez.dag.api.records.DAGProtos.RootInputLeafOutputProto;
import org.apache.tez.dag.api.records.DAGProtos.TezEntityDescriptorProto;
import org.apache.tez.dag.api.records.DAGProtos.TezUserPayloadProto;
import org.apache.tez.dag.api.records.DAGProtos.VertexPlan;
import org.apache.tez.dag.records.TezDAGID;
import org.apache.tez.runtime.api.impl.InputSpec;
import org.apache.tez.runtime.api.impl.OutputSpec;
import org.apache.tez.runtime.api.impl.TaskSpec;
import org.junit.jupiter.api.Test;

import com.google.protobuf.ByteString;

/**
 * What the client makes of Hive's DAG plan once Hive has planned it: the order of the ranks' stages, and each vertex's
 * task spec with Tez's edge classes replaced by datampi's and Hive's payloads kept. (Hive's own part, the plan and the
 * splits, runs in the integration tests.)
 */
class DagBuilderTest {
    private static final String GROUPED = "org.apache.tez.runtime.library.input.OrderedGroupedKVInput";
    private static final String UNORDERED = "org.apache.tez.runtime.library.input.UnorderedKVInput";
    private static final TezDAGID DAG = TezDAGID.getInstance(ApplicationId.newInstance(7, 3), 1);

    /**
     * Map 1 reads a fact table pruned by Map 4's events and Map 3's broadcast; Reducer 2 reads Map 1. In Hive's order
     * Map 1 comes first; it runs after both, and Reducer 2 after it.
     */
    @Test
    void aVertexComesAfterWhatItReadsAndWhatPrunesItsInputOtherwiseInHivesOrder() {
        DAGPlan plan = DAGPlan.newBuilder().setName("dag")
                .addVertex(vertex("Map 1", true)).addVertex(vertex("Reducer 2", false))
                .addVertex(vertex("Map 3", true)).addVertex(vertex("Map 4", true))
                .addEdge(edge("Map 3", "Map 1", PlanEdgeDataMovementType.BROADCAST, UNORDERED))
                .addEdge(edge("Map 1", "Reducer 2", PlanEdgeDataMovementType.SCATTER_GATHER, GROUPED))
                .buildPartial();
        Map<String, SplitRequest> splits = Map.of(
                "Map 1", new SplitRequest(root(), 2, 768, Map.of("Map 4", 1), 1),
                "Map 3", new SplitRequest(root(), 2, 768, Map.of(), 1),
                "Map 4", new SplitRequest(root(), 2, 768, Map.of(), 1));

        List<VertexPlan> order = DagBuilder.dependencyOrder(plan, plan.getVertexList(), splits);

        assertEquals(List.of("Map 3", "Map 4", "Map 1", "Reducer 2"), order.stream().map(VertexPlan::getName).toList());
    }

    @Test
    void aCycleIsRefusedNamingItsVertices() {
        DAGPlan plan = DAGPlan.newBuilder().setName("dag")
                .addVertex(vertex("Map 1", true)).addVertex(vertex("Reducer 2", false))
                .addVertex(vertex("Reducer 3", false))
                .addEdge(edge("Reducer 3", "Reducer 2", PlanEdgeDataMovementType.SCATTER_GATHER, GROUPED))
                .addEdge(edge("Reducer 2", "Reducer 3", PlanEdgeDataMovementType.SCATTER_GATHER, GROUPED))
                .buildPartial();

        IllegalStateException cycle = assertThrows(IllegalStateException.class,
                () -> DagBuilder.dependencyOrder(plan, plan.getVertexList(), Map.of()));
        assertTrue(cycle.getMessage().contains("Reducer 2") && cycle.getMessage().contains("Reducer 3")
                && !cycle.getMessage().contains("Map 1"), cycle.getMessage());
    }

    /**
     * Map 1 (4 tasks) sends sorted to Reducer 3 (2 tasks), and the union of Map 2 (1 task) and Map 5 (2 tasks)
     * unsorted: Reducer 3 gets one input per edge or union, the union's read from the tasks of both members, each with
     * datampi's input class and Hive's payload; Map 1 reads its root input and writes its leaf output and one output
     * per edge with the edge's partitions, with its vertex's own settings.
     */
    @Test
    void eachEdgeOrUnionIsOneInputOfDatampisClassesWithHivesPayloads() throws HiveException {
        DAGPlan plan = DAGPlan.newBuilder().setName("dag")
                .addVertex(vertex("Map 1", true).toBuilder().setVertexConf(ConfigurationProto.newBuilder()
                        .addConfKeyValues(PlanKeyValuePair.newBuilder().setKey("hive.vertex.only").setValue("yes")))
                        .addOutputs(RootInputLeafOutputProto.newBuilder().setName("out_1")
                                .setIODescriptor(descriptor("org.apache.hadoop.hive.ql.exec.tez.NullMROutput", "")))
                        .buildPartial())
                .addVertex(vertex("Map 2", true)).addVertex(vertex("Reducer 3", false))
                .addVertex(vertex("Map 5", true))
                .addEdge(edge("Map 1", "Reducer 3", PlanEdgeDataMovementType.SCATTER_GATHER, GROUPED))
                .addEdge(edge("Map 2", "Reducer 3", PlanEdgeDataMovementType.SCATTER_GATHER, UNORDERED))
                .addEdge(edge("Map 5", "Reducer 3", PlanEdgeDataMovementType.SCATTER_GATHER, UNORDERED))
                .addVertexGroups(PlanVertexGroupInfo.newBuilder().setGroupName("Union 4").addGroupMembers("Map 2")
                        .addGroupMembers("Map 5").addEdgeMergedInputs(PlanGroupInputEdgeInfo.newBuilder()
                                .setDestVertexName("Reducer 3").buildPartial()).buildPartial())
                .buildPartial();
        Map<String, List<DagVertex.VertexTask>> tasks = new HashMap<>();
        tasks.put("Map 1", Collections.nCopies(4, new DagVertex.VertexTask(new byte[0], List.of())));
        tasks.put("Map 2", Collections.nCopies(1, new DagVertex.VertexTask(new byte[0], List.of())));
        tasks.put("Reducer 3", Collections.nCopies(2, new DagVertex.VertexTask(new byte[0], List.of())));
        tasks.put("Map 5", Collections.nCopies(2, new DagVertex.VertexTask(new byte[0], List.of())));
        List<DagEdge> edges = EdgeRouting.route(plan, tasks, Set.of(), Map.of(), 2);

        TaskSpec reducer = DagBuilder.vertex(DAG, "dag", plan, plan.getVertex(2), tasks, edges, null,
                Optional.empty()).template();
        assertEquals(List.of("Map 1", "Union 4"),
                reducer.getInputs().stream().map(InputSpec::getSourceVertexName).toList(), edges.toString());
        InputSpec sorted = reducer.getInputs().get(0);
        assertEquals(DagJob.GROUPED_INPUT, sorted.getInputDescriptor().getClassName());
        assertEquals(4, sorted.getPhysicalEdgeCount(), "read from each of Map 1's tasks");
        assertPayload("Map 1 to Reducer 3", sorted.getInputDescriptor().getUserPayload().deepCopyAsArray());
        InputSpec union = reducer.getInputs().get(1);
        assertEquals(DagJob.UNORDERED_INPUT, union.getInputDescriptor().getClassName());
        assertEquals(3, union.getPhysicalEdgeCount(), "read from the tasks of both members");
        assertEquals(2, reducer.getVertexParallelism());

        TaskSpec map = DagBuilder.vertex(DAG, "dag", plan, plan.getVertex(0), tasks, edges,
                new SplitRequest(root(), 2, 768, Map.of(), 1), Optional.empty()).template();
        assertEquals(List.of("table"), map.getInputs().stream().map(InputSpec::getSourceVertexName).toList());
        assertEquals(List.of("out_1", "Reducer 3"),
                map.getOutputs().stream().map(OutputSpec::getDestinationVertexName).toList());
        OutputSpec shuffle = map.getOutputs().get(1);
        assertEquals(DagJob.SHUFFLE_OUTPUT, shuffle.getOutputDescriptor().getClassName());
        assertEquals(2, shuffle.getPhysicalEdgeCount(), "a partition per task of Reducer 3");
        assertPayload("Map 1 to Reducer 3", shuffle.getOutputDescriptor().getUserPayload().deepCopyAsArray());
        assertEquals("yes", map.getTaskConf().get("hive.vertex.only"));
        assertEquals(4, map.getVertexParallelism());
    }

    /** A scan whose splits wait for pruning events is deferred: no tasks yet, its split request with it. */
    @Test
    void aPrunedScanIsDeferred() throws HiveException {
        DAGPlan plan = DAGPlan.newBuilder().setName("dag").addVertex(vertex("Map 1", true)).buildPartial();
        SplitRequest pruned = new SplitRequest(root(), 2, 768, Map.of("Map 2", 1), 1);

        DagVertex scan = DagBuilder.vertex(DAG, "dag", plan, plan.getVertex(0), Map.of("Map 1", List.of()),
                List.of(), pruned, Optional.empty());

        assertTrue(scan.deferred());
        assertEquals(Set.of("Map 2"), scan.eventSources());
    }

    private static VertexPlan vertex(String name, boolean readsSplits) {
        VertexPlan.Builder vertex = VertexPlan.newBuilder().setName(name)
                .setProcessorDescriptor(descriptor("org.apache.hadoop.hive.ql.exec.tez.MapTezProcessor", ""));
        if (readsSplits) {
            vertex.addInputs(root());
        }
        return vertex.buildPartial();
    }

    private static RootInputLeafOutputProto root() {
        return RootInputLeafOutputProto.newBuilder().setName("table")
                .setIODescriptor(descriptor("org.apache.tez.mapreduce.input.MRInputLegacy", ""))
                .setControllerDescriptor(descriptor("org.apache.hadoop.hive.ql.exec.tez.HiveSplitGenerator", ""))
                .build();
    }

    /** An edge whose destination descriptor carries "FROM to TO" as Hive's payload. */
    private static EdgePlan edge(String from, String to, PlanEdgeDataMovementType movement, String input) {
        return EdgePlan.newBuilder().setInputVertexName(from).setOutputVertexName(to).setDataMovementType(movement)
                .setEdgeSource(descriptor("org.apache.tez.runtime.library.output.OrderedPartitionedKVOutput",
                        from + " to " + to))
                .setEdgeDestination(descriptor(input, from + " to " + to)).buildPartial();
    }

    private static TezEntityDescriptorProto descriptor(String className, String payload) {
        return TezEntityDescriptorProto.newBuilder().setClassName(className)
                .setTezUserPayload(TezUserPayloadProto.newBuilder()
                        .setUserPayload(ByteString.copyFrom(payload, StandardCharsets.UTF_8)))
                .build();
    }

    private static void assertPayload(String expected, byte[] payload) {
        assertArrayEquals(expected.getBytes(StandardCharsets.UTF_8), payload);
    }
}
