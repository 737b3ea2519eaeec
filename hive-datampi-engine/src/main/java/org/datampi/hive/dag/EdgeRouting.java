package org.datampi.hive.dag;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.tez.dag.api.records.DAGProtos.DAGPlan;
import org.apache.tez.dag.api.records.DAGProtos.EdgePlan;

/**
 * A DAG plan's edges as streams of datampi's shuffle ({@link DagEdge}): each edge a range of the job's partition
 * numbers (one per destination task for a scatter-gather edge, one per rank for a broadcast edge), sorted when its
 * destination reads it in groups of equal keys; a union's members send to the partitions of the union's one edge.
 */
final class EdgeRouting {
    private EdgeRouting() {
    }

    /**
     * The plan's edges in its order, with the tasks of each destination vertex (by name) on RANKS ranks.
     *
     * @throws HiveException for an edge the ranks do not run (one-to-one, custom), or a sorted edge into a vertex that
     *     reads splits
     */
    static List<DagEdge> route(DAGPlan plan, Map<String, List<DagVertex.VertexTask>> tasks, int ranks)
            throws HiveException {
        List<DagEdge> edges = new ArrayList<>();
        Map<String, DagEdge> groupEdges = new HashMap<>();
        int partitions = 0;
        for (EdgePlan edge : plan.getEdgeList()) {
            String input = inputName(plan, edge);
            DagEdge shared = groupEdges.get(input + " -> " + edge.getOutputVertexName());
            if (shared != null) {
                // Another member of a union: it sends to the partitions of the union's edge.
                edges.add(new DagEdge(edge.getInputVertexName(), input, edge.getOutputVertexName(), shared.routing(),
                        shared.firstPartition(), shared.partitions()));
                continue;
            }
            DagEdge routed = route(edge, input, partitions, tasks.get(edge.getOutputVertexName()).size(), ranks);
            groupEdges.put(input + " -> " + edge.getOutputVertexName(), routed);
            boolean readsSplits = plan.getVertexList().stream().anyMatch(vertex -> vertex.getName()
                    .equals(edge.getOutputVertexName()) && vertex.getInputsCount() > 0);
            if (routed.routing() != DagEdge.Routing.BROADCAST && readsSplits) {
                throw new HiveException("datampi's DAG mode sends only broadcast edges to a vertex that reads splits; "
                        + edge.getInputVertexName() + " -> " + edge.getOutputVertexName() + " is "
                        + edge.getDataMovementType());
            }
            edges.add(routed);
            partitions += routed.partitions();
        }
        return edges;
    }

    /** The edge's routing on the ranks, from Tez's data movement and the input Hive gave its destination. */
    private static DagEdge route(EdgePlan edge, String input, int firstPartition, int destinationTasks, int ranks)
            throws HiveException {
        String inputClass = edge.getEdgeDestination().getClassName();
        return switch (edge.getDataMovementType()) {
            case BROADCAST -> new DagEdge(edge.getInputVertexName(), input, edge.getOutputVertexName(),
                    DagEdge.Routing.BROADCAST, firstPartition, ranks);
            case SCATTER_GATHER -> new DagEdge(edge.getInputVertexName(), input, edge.getOutputVertexName(),
                    GROUPED_INPUTS.contains(inputClass) ? DagEdge.Routing.SORTED : DagEdge.Routing.UNSORTED,
                    firstPartition, Math.max(1, destinationTasks));
            default -> throw new HiveException("datampi's DAG mode does not run the " + edge.getDataMovementType()
                    + " edge " + edge.getInputVertexName() + " -> " + edge.getOutputVertexName() + " yet");
        };
    }

    /** Tez's inputs that read a sorted edge in groups of equal keys; Hive's other edge inputs are unordered. */
    private static final Set<String> GROUPED_INPUTS = Set.of(
            "org.apache.tez.runtime.library.input.OrderedGroupedKVInput",
            "org.apache.tez.runtime.library.input.OrderedGroupedInputLegacy",
            "org.apache.tez.runtime.library.input.OrderedGroupedMergedKVInput");

    /** The name under which the edge's destination reads it: its source vertex's, or its union's (vertex group). */
    private static String inputName(DAGPlan plan, EdgePlan edge) {
        return plan.getVertexGroupsList().stream()
                .filter(group -> group.getGroupMembersList().contains(edge.getInputVertexName())
                        && group.getEdgeMergedInputsList().stream()
                                .anyMatch(merged -> merged.getDestVertexName().equals(edge.getOutputVertexName())))
                .map(group -> group.getGroupName()).findFirst().orElse(edge.getInputVertexName());
    }
}
