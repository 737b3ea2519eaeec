package org.datampi.hive.dag;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.apache.hadoop.hive.ql.exec.tez.CustomPartitionEdge;
import org.apache.hadoop.hive.ql.exec.tez.CustomPartitionVertex;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.tez.dag.api.DagTypeConverters;
import org.apache.tez.dag.api.EdgeManagerPluginContext;
import org.apache.tez.dag.api.EdgeManagerPluginDescriptor;
import org.apache.tez.dag.api.EdgeProperty;
import org.apache.tez.dag.api.InputDescriptor;
import org.apache.tez.dag.api.UserPayload;
import org.apache.tez.dag.api.VertexLocationHint;
import org.apache.tez.dag.api.VertexManagerPluginContext;
import org.apache.tez.dag.api.event.VertexState;
import org.apache.tez.dag.api.records.DAGProtos.DAGPlan;
import org.apache.tez.dag.api.records.DAGProtos.EdgePlan;
import org.apache.tez.dag.api.records.DAGProtos.VertexPlan;
import org.apache.tez.runtime.api.InputSpecUpdate;
import org.apache.tez.runtime.api.VertexStatistics;
import org.apache.tez.runtime.api.events.CustomProcessorEvent;
import org.apache.tez.runtime.api.events.DataMovementEvent;
import org.apache.tez.runtime.api.events.InputDataInformationEvent;

/**
 * A bucket map join's big-table vertex, set up as Tez's application master sets it up. Hive's DagUtils gives such a
 * vertex un-grouped splits (Tez's MRInputAMSplitGenerator over HiveInputFormat) and Hive's {@link CustomPartitionVertex}
 * as its vertex manager, which groups each bucket's splits into tasks of their own (Hive's SplitGrouper, sized to the
 * ranks), switches the input to read grouped splits and makes the routing table of the bucket edges into the vertex:
 * which tasks join which bucket. Here Hive's own vertex manager runs over the generator's events, once, on the client,
 * with a stand-in for Tez's context ({@link Context}) that keeps what it sets. Its task numbering differs from run to
 * run (its groups sit in a hash multimap of identity-hashed splits), so the ranks get its result rather than making it
 * again. Sort-merge bucket joins (a map vertex of several root inputs) are refused before this ({@link DagShape}).
 */
final class BucketJoin {
    /** Hive's vertex manager of the big table of a bucket map join (and of a sort-merge bucket join). */
    static final String VERTEX_MANAGER = CustomPartitionVertex.class.getName();
    /** Hive's edge manager of a bucket map join's edges into the big table. */
    static final String EDGE_MANAGER = CustomPartitionEdge.class.getName();

    /**
     * How the big table's tasks join the buckets.
     *
     * @param inputPayload the root input's payload as the vertex manager left it: grouping on, since each task's split
     *     is one of Tez's grouped splits
     * @param bucketTasks per bucket of the table, the tasks that join it (none for a bucket without files)
     */
    record Groups(UserPayload inputPayload, List<List<Integer>> bucketTasks) {
        Groups {
            requireNonNull(inputPayload, "inputPayload is null");
            bucketTasks = bucketTasks.stream().map(List::copyOf).toList();
        }
    }

    private BucketJoin() {
    }

    /** Whether Hive made the vertex the big table of a bucket map join (its vertex manager is Hive's custom one). */
    static boolean joinsBuckets(VertexPlan vertex) {
        return vertex.hasVertexManagerPlugin() && VERTEX_MANAGER.equals(vertex.getVertexManagerPlugin().getClassName());
    }

    /**
     * The vertex's tasks from its root input's un-grouped SPLITS, grouped by Hive's vertex manager for RANKS ranks of
     * TASK_MEMORY_MB each, with how they join the buckets.
     */
    static VertexSplits.Made group(DAGPlan plan, VertexPlan vertex, VertexSplits.Generated splits, int ranks, int taskMemoryMb)
            throws HiveException {
        Context context = new Context(plan, vertex, ranks, taskMemoryMb);
        CustomPartitionVertex manager = new CustomPartitionVertex(context);
        // The descriptor is the generator's own copy: the vertex manager switches its payload to grouped splits.
        InputDescriptor input = splits.input();
        try {
            manager.initialize();
            manager.onRootVertexInitialized(vertex.getInputs(0).getName(), input, new ArrayList<>(splits.events()));
        } catch (RuntimeException e) {
            throw new HiveException("Hive's bucket map join vertex manager failed on the splits of " + vertex.getName()
                    + ": " + e.getMessage(), e);
        }
        return new VertexSplits.Made(context.tasks(), splits.counters(),
                Optional.of(new Groups(input.getUserPayload(), context.routing())));
    }

    /**
     * What Hive's vertex manager sees of Tez's application master, and keeps what it sets: the grouped splits as
     * events per task, the task count with the tasks' hosts, and the routing table it gives the bucket edges. It runs
     * nothing: the ranks run the tasks. What it sends the processors (the table's bucket count and each task's bucket)
     * is for LLAP's cache of hash tables per bucket only (Hive's MapJoinOperator), and is not kept.
     */
    private static final class Context implements VertexManagerPluginContext {
        private final DAGPlan plan;
        private final VertexPlan vertex;
        private final int ranks;
        private final int taskMemoryMb;
        private final Map<Integer, byte[]> splitsByTask = new TreeMap<>();
        private int parallelism = -1;
        private VertexLocationHint locationHint;
        private Map<String, EdgeManagerPluginDescriptor> edgeManagers = Map.of();

        Context(DAGPlan plan, VertexPlan vertex, int ranks, int taskMemoryMb) {
            this.plan = requireNonNull(plan, "plan is null");
            this.vertex = requireNonNull(vertex, "vertex is null");
            this.ranks = ranks;
            this.taskMemoryMb = taskMemoryMb;
        }

        List<DagVertex.VertexTask> tasks() throws HiveException {
            if (parallelism < 0) {
                throw new HiveException("Hive's bucket map join vertex manager set no task count for "
                        + vertex.getName());
            }
            if (!List.copyOf(splitsByTask.keySet()).equals(IntStream.range(0, parallelism).boxed().toList())) {
                throw new HiveException("Hive's bucket map join vertex manager made " + parallelism + " tasks of "
                        + vertex.getName() + " but gave splits to tasks " + splitsByTask.keySet());
            }
            List<List<String>> hosts = VertexSplits.hostsOf(locationHint, parallelism);
            List<DagVertex.VertexTask> tasks = new ArrayList<>(parallelism);
            for (int task = 0; task < parallelism; task++) {
                tasks.add(new DagVertex.VertexTask(splitsByTask.get(task), task < hosts.size() ? hosts.get(task)
                        : List.of()));
            }
            return tasks;
        }

        /**
         * The routing table Hive's vertex manager gave the bucket edges (one for all), per bucket, as Hive's own edge
         * manager reads it from its payload and routes a source task's output of each bucket.
         */
        List<List<Integer>> routing() throws HiveException {
            EdgeManagerPluginDescriptor edge = edgeManagers.values().stream().filter(Objects::nonNull)
                    .findFirst().orElseThrow(() -> new HiveException("Hive's bucket map join vertex manager gave "
                            + "no routing table to the edges into " + vertex.getName()));
            CustomPartitionEdge router = new CustomPartitionEdge(new EdgeContext(edge.getUserPayload(), vertex.getName(),
                    parallelism));
            router.initialize();
            int buckets = router.getNumSourceTaskPhysicalOutputs(0);
            List<List<Integer>> bucketTasks = new ArrayList<>(buckets);
            for (int bucket = 0; bucket < buckets; bucket++) {
                Map<Integer, List<Integer>> destinations = new TreeMap<>();
                router.routeDataMovementEventToDestination(DataMovementEvent.create(bucket, null), 0, bucket,
                        destinations);
                // A bucket without a task is routed to -1 (nowhere).
                bucketTasks.add(destinations.keySet().stream().filter(task -> task >= 0).toList());
            }
            return bucketTasks;
        }

        @Override
        public Map<String, EdgeProperty> getInputVertexEdgeProperties() {
            return edgeProperties(EdgePlan::getOutputVertexName, EdgePlan::getInputVertexName);
        }

        @Override
        public Map<String, EdgeProperty> getOutputVertexEdgeProperties() {
            return edgeProperties(EdgePlan::getInputVertexName, EdgePlan::getOutputVertexName);
        }

        /** The plan's edges whose END is this vertex, by the vertex at their OTHER end. */
        private Map<String, EdgeProperty> edgeProperties(Function<EdgePlan, String> end,
                Function<EdgePlan, String> other) {
            Map<String, EdgeProperty> edges = new HashMap<>();
            for (EdgePlan edge : plan.getEdgeList()) {
                if (end.apply(edge).equals(vertex.getName())) {
                    edges.put(other.apply(edge), DagTypeConverters.createEdgePropertyMapFromDAGPlan(edge));
                }
            }
            return edges;
        }

        @Override
        public VertexStatistics getVertexStatistics(String vertexName) {
            throw unsupported("vertex statistics");
        }

        @Override
        public String getVertexName() {
            return vertex.getName();
        }

        @Override
        public UserPayload getUserPayload() {
            return DagTypeConverters.convertVertexManagerPluginDescriptorFromDAGPlan(vertex.getVertexManagerPlugin())
                    .getUserPayload();
        }

        @Override
        public int getVertexNumTasks(String vertexName) {
            if (vertexName.equals(vertex.getName())) {
                return parallelism;
            }
            throw unsupported("the task count of another vertex (" + vertexName + ")");
        }

        @Override
        public Resource getVertexTaskResource() {
            return Resource.newInstance(taskMemoryMb, 1);
        }

        @Override
        public Resource getTotalAvailableResource() {
            // As SplitGeneratorContext: the ranks, each running one task at a time with the rank's heap.
            return Resource.newInstance(taskMemoryMb * ranks, ranks);
        }

        @Override
        public int getNumClusterNodes() {
            return ranks;
        }

        @Override
        public void setVertexParallelism(int parallelism, VertexLocationHint locationHint,
                Map<String, EdgeManagerPluginDescriptor> sourceEdgeManagers,
                Map<String, InputSpecUpdate> rootInputSpecUpdate) {
            this.parallelism = parallelism;
            this.locationHint = locationHint;
            this.edgeManagers = sourceEdgeManagers == null ? Map.of() : new HashMap<>(sourceEdgeManagers);
        }

        @Override
        public void reconfigureVertex(int parallelism, VertexLocationHint locationHint,
                Map<String, EdgeProperty> sourceEdgeProperties, Map<String, InputSpecUpdate> rootInputSpecUpdate) {
            throw unsupported("reconfiguring the vertex");
        }

        @Override
        public void reconfigureVertex(int parallelism, VertexLocationHint locationHint,
                Map<String, EdgeProperty> sourceEdgeProperties) {
            throw unsupported("reconfiguring the vertex");
        }

        @Override
        public void reconfigureVertex(Map<String, InputSpecUpdate> rootInputSpecUpdate,
                VertexLocationHint locationHint, int parallelism) {
            throw unsupported("reconfiguring the vertex");
        }

        @Override
        public void addRootInputEvents(String inputName, Collection<InputDataInformationEvent> events) {
            for (InputDataInformationEvent event : events) {
                ByteBuffer payload = event.getUserPayload().duplicate();
                byte[] split = new byte[payload.remaining()];
                payload.get(split);
                if (splitsByTask.put(event.getTargetIndex(), split) != null) {
                    throw new IllegalStateException("Hive's bucket map join vertex manager gave task "
                            + event.getTargetIndex() + " of " + vertex.getName() + " more than one split");
                }
            }
        }

        @Override
        public void sendEventToProcessor(Collection<CustomProcessorEvent> events, int taskId) {
            // LLAP's per-bucket hash table cache only (see the class comment).
        }

        @Override
        public void scheduleVertexTasks(List<TaskWithLocationHint> tasks) {
            throw unsupported("scheduling tasks");
        }

        @Override
        public void scheduleTasks(List<ScheduleTaskRequest> tasks) {
            throw unsupported("scheduling tasks");
        }

        @Override
        public Set<String> getVertexInputNames() {
            return Set.of(vertex.getInputs(0).getName());
        }

        @Override
        public void setVertexLocationHint(VertexLocationHint locationHint) {
            this.locationHint = locationHint;
        }

        @Override
        public int getDAGAttemptNumber() {
            return 1;
        }

        @Override
        public void registerForVertexStateUpdates(String vertexName, Set<VertexState> stateSet) {
            // Nothing runs here to update.
        }

        @Override
        public void vertexReconfigurationPlanned() {
            // The splits are grouped at once.
        }

        @Override
        public void doneReconfiguringVertex() {
            // The splits are grouped at once.
        }

        @Override
        public Map<String, List<String>> getInputVertexGroups() {
            return Map.of();
        }

        private UnsupportedOperationException unsupported(String what) {
            return new UnsupportedOperationException("datampi's stand-in for Tez's vertex manager context does not "
                    + "support " + what + " (vertex " + vertex.getName() + ")");
        }
    }

    /** What Hive's edge manager needs to read its routing table: its payload and the big table's task count. */
    private record EdgeContext(UserPayload payload, String destination, int destinationTasks)
            implements EdgeManagerPluginContext {
        @Override
        public UserPayload getUserPayload() {
            return payload;
        }

        @Override
        public String getSourceVertexName() {
            return "";
        }

        @Override
        public String getDestinationVertexName() {
            return destination;
        }

        @Override
        public int getSourceVertexNumTasks() {
            return 1;
        }

        @Override
        public int getDestinationVertexNumTasks() {
            return destinationTasks;
        }

        @Override
        public String getVertexGroupName() {
            return null;
        }
    }
}
