package org.datampi.hive.dag;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.tez.dag.api.records.DAGProtos.DAGPlan;
import org.apache.tez.dag.api.records.DAGProtos.EdgePlan;
import org.apache.tez.dag.api.records.DAGProtos.PlanEdgeDataMovementType;

/**
 * A DAG plan's edges as streams of datampi's shuffle ({@link DagEdge}): each edge a range of the job's partition
 * numbers (one per destination task for a scatter-gather or one-to-one edge, one per rank for a broadcast edge),
 * sorted when its destination reads it in groups of equal keys; a union's members send to the partitions of the
 * union's one edge.
 *
 * <p>A bucket map join's edges (Hive's CustomPartitionEdge) have one partition per task of the big table, as a
 * scatter-gather edge: a pair goes to each task that joins its bucket ({@link DagEdge.Routing#BUCKET}).
 *
 * <p>A cross product's edges (Tez's cartesian product edges, {@code hive.tez.cartesian-product.enabled}) become a
 * grid of one row: the input of most tasks is split over the destination's tasks (its own partitioner, which hashes
 * values, picks each pair's task) and every other input is broadcast, so that each destination task pairs its share
 * of the one with all of the others. Tez's vertex manager makes a grid of chunks of every source; one row keeps
 * each partition on one rank, read by one task, as every other edge here.
 */
final class EdgeRouting {
    private EdgeRouting() {
    }

    /**
     * The plan's edges in its order, with the tasks of each vertex (by name) on RANKS ranks; PRUNED names the vertices
     * whose splits pruning defers (no tasks yet), BUCKET_TASKS the big tables of bucket map joins, with the tasks
     * that join each bucket ({@link BucketJoin}).
     *
     * @throws HiveException for an edge the ranks do not run (a custom edge of another edge manager than a cross
     *     product's or a bucket map join's), or an edge other than a broadcast or a bucket map join's into a vertex that
     *     reads splits
     */
    static List<DagEdge> route(DAGPlan plan, Map<String, List<DagVertex.VertexTask>> tasks, Set<String> pruned,
            Map<String, List<List<Integer>>> bucketTasks, int ranks) throws HiveException {
        List<DagEdge> edges = new ArrayList<>();
        Map<String, String> splitCrossInputs = splitCrossInputs(plan, tasks, pruned, ranks);
        Map<String, DagEdge> groupEdges = new HashMap<>();
        int partitions = 0;
        for (EdgePlan edge : plan.getEdgeList()) {
            String input = inputName(plan, edge);
            DagEdge shared = groupEdges.get(input + " -> " + edge.getOutputVertexName());
            if (shared != null) {
                // Another member of a union: it sends to the partitions of the union's edge.
                edges.add(new DagEdge(edge.getInputVertexName(), input, edge.getOutputVertexName(), shared.routing(),
                        shared.firstPartition(), shared.partitions(), shared.bucketTasks()));
                continue;
            }
            boolean splitCross = input.equals(splitCrossInputs.get(edge.getOutputVertexName()));
            DagEdge routed = route(edge, input, partitions, tasks.get(edge.getOutputVertexName()).size(), ranks,
                    splitCross, bucketTasks.getOrDefault(edge.getOutputVertexName(), List.of()));
            groupEdges.put(input + " -> " + edge.getOutputVertexName(), routed);
            boolean readsSplits = plan.getVertexList().stream().anyMatch(vertex -> vertex.getName()
                    .equals(edge.getOutputVertexName()) && vertex.getInputsCount() > 0);
            if (routed.routing() != DagEdge.Routing.BROADCAST && routed.routing() != DagEdge.Routing.BUCKET
                    && readsSplits) {
                throw new HiveException("datampi's DAG mode sends only broadcast edges and bucket map joins' edges to "
                        + "a vertex that reads splits; " + edge.getInputVertexName() + " -> "
                        + edge.getOutputVertexName() + " is " + edge.getDataMovementType());
            }
            edges.add(routed);
            partitions += routed.partitions();
        }
        return edges;
    }

    /**
     * The edge's routing on the ranks, from Tez's data movement and the input Hive gave its destination; SPLIT_CROSS
     * for the source of a cross product that is split over the destination's tasks; BUCKET_TASKS, for an edge into a
     * bucket map join's big table, the tasks that join each bucket.
     */
    private static DagEdge route(EdgePlan edge, String input, int firstPartition, int destinationTasks, int ranks,
            boolean splitCross, List<List<Integer>> bucketTasks) throws HiveException {
        String inputClass = edge.getEdgeDestination().getClassName();
        DagEdge.Routing routing = switch (edge.getDataMovementType()) {
            case BROADCAST -> DagEdge.Routing.BROADCAST;
            case SCATTER_GATHER -> GROUPED_INPUTS.contains(inputClass) ? DagEdge.Routing.SORTED
                    : DagEdge.Routing.UNSORTED;
            case ONE_TO_ONE -> DagEdge.Routing.ONE_TO_ONE;
            case CUSTOM -> {
                if (isBucketJoin(edge)) {
                    if (bucketTasks.isEmpty()) {
                        throw new HiveException("The bucket map join's edge " + edge.getInputVertexName() + " -> "
                                + edge.getOutputVertexName() + " leads to a vertex without a bucket routing table");
                    }
                    yield DagEdge.Routing.BUCKET;
                }
                if (!isCrossProduct(edge)) {
                    throw new HiveException("datampi's DAG mode does not run the custom edge "
                            + edge.getInputVertexName() + " -> " + edge.getOutputVertexName() + " ("
                            + edge.getEdgeManager().getClassName() + ") yet");
                }
                yield splitCross ? DagEdge.Routing.UNSORTED : DagEdge.Routing.BROADCAST;
            }
            default -> throw new HiveException("datampi's DAG mode does not run the " + edge.getDataMovementType()
                    + " edge " + edge.getInputVertexName() + " -> " + edge.getOutputVertexName() + " yet");
        };
        return new DagEdge(edge.getInputVertexName(), input, edge.getOutputVertexName(), routing, firstPartition,
                routing == DagEdge.Routing.BROADCAST ? ranks : Math.max(1, destinationTasks),
                routing == DagEdge.Routing.BUCKET ? bucketTasks : List.of());
    }

    /**
     * Per cross product's destination, the input split over its tasks: the one of most tasks (a union's members'
     * added up, a scan whose splits pruning defers counted as one task per rank, as ReducerTasks counts it), or the
     * first of them.
     */
    private static Map<String, String> splitCrossInputs(DAGPlan plan, Map<String, List<DagVertex.VertexTask>> tasks,
            Set<String> pruned, int ranks) {
        Map<String, Map<String, Integer>> inputTasks = new LinkedHashMap<>();
        for (EdgePlan edge : plan.getEdgeList()) {
            if (isCrossProduct(edge)) {
                String source = edge.getInputVertexName();
                inputTasks.computeIfAbsent(edge.getOutputVertexName(), destination -> new LinkedHashMap<>())
                        .merge(inputName(plan, edge), pruned.contains(source) ? ranks : tasks.get(source).size(),
                                Integer::sum);
            }
        }
        Map<String, String> split = new HashMap<>();
        inputTasks.forEach((destination, inputs) -> split.put(destination, inputs.entrySet().stream()
                .reduce((first, other) -> other.getValue() > first.getValue() ? other : first).orElseThrow().getKey()));
        return split;
    }

    private static boolean isBucketJoin(EdgePlan edge) {
        return edge.getDataMovementType() == PlanEdgeDataMovementType.CUSTOM && edge.hasEdgeManager()
                && BucketJoin.EDGE_MANAGER.equals(edge.getEdgeManager().getClassName());
    }

    private static boolean isCrossProduct(EdgePlan edge) {
        return edge.getDataMovementType() == PlanEdgeDataMovementType.CUSTOM && edge.hasEdgeManager()
                && CROSS_PRODUCT_EDGE.equals(edge.getEdgeManager().getClassName());
    }

    /** Tez's edge manager of Hive's cross product edges (XPROD_EDGE). */
    private static final String CROSS_PRODUCT_EDGE =
            "org.apache.tez.runtime.library.cartesianproduct.CartesianProductEdgeManager";

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
