package org.datampi.hive.dag;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.Context;
import org.apache.hadoop.hive.ql.QueryPlan;
import org.apache.hadoop.hive.ql.exec.tez.DagUtils;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.hive.ql.plan.BaseWork;
import org.apache.hadoop.hive.ql.plan.MapWork;
import org.apache.hadoop.hive.ql.plan.TableDesc;
import org.apache.hadoop.hive.ql.plan.UnionWork;
import org.apache.hadoop.hive.ql.plan.TezWork;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.tez.dag.api.DagTypeConverters;
import org.apache.tez.dag.api.InputDescriptor;
import org.apache.tez.dag.api.OutputDescriptor;
import org.apache.tez.dag.api.records.DAGProtos.DAGPlan;
import org.apache.tez.dag.api.records.DAGProtos.EdgePlan;
import org.apache.tez.dag.api.records.DAGProtos.PlanKeyValuePair;
import org.apache.tez.dag.api.records.DAGProtos.RootInputLeafOutputProto;
import org.apache.tez.dag.api.records.DAGProtos.VertexPlan;
import org.apache.tez.dag.records.TezDAGID;
import org.apache.tez.dag.records.TezTaskAttemptID;
import org.apache.tez.dag.records.TezTaskID;
import org.apache.tez.dag.records.TezVertexID;
import org.apache.tez.runtime.api.impl.InputSpec;
import org.apache.tez.runtime.api.impl.OutputSpec;
import org.apache.tez.runtime.api.impl.TaskSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a DAG for the ranks from Hive's TezWork, on the client: Hive's own DAG plan as its TezTask builds it for Tez
 * ({@link HiveDagPlan}), checked for what the ranks run ({@link DagShape}), and then what Tez's application master
 * would do with it: the vertices in an order in which each comes after those it depends on (the ranks' stages), each
 * root input's splits from Hive's split generator ({@link VertexSplits}, several at once: {@link ClientSplits}), the
 * task counts of the vertices fed by edges ({@link ReducerTasks}), and each task's spec. A root input whose
 * partitions other vertices' events prune (dynamic partition pruning) gets its splits on rank 0 while the DAG runs:
 * its vertex carries the request for them ({@link SplitRequest}) and comes after its event sources. Each edge becomes a stream of datampi's shuffle
 * ({@link EdgeRouting}): its Tez classes are replaced by datampi's ({@link DagJob#SHUFFLE_OUTPUT},
 * {@link DagJob#GROUPED_INPUT}, {@link DagJob#UNORDERED_INPUT}); the payloads stay Hive's.
 *
 * <p>Run so far (docs/dag-mode.md): any DAG of map vertices with one root input and reduce vertices over
 * scatter-gather (sorted or not), broadcast, one-to-one and cross-product edges, unions and reduce-side merge joins
 * included (a union's members send to one stream), and bucket map joins (the big table's tasks from Hive's own vertex
 * manager: {@link BucketJoin}). Merge joins of map vertices (sort-merge bucket joins) and other custom edges are
 * refused before anything is read or written.
 */
public final class DagBuilder {
    private static final Logger LOG = LoggerFactory.getLogger(DagBuilder.class);
    /** One application id per DAG of this JVM: Hive names task attempts, and so output files, after it. */
    private static final long CLUSTER_TIMESTAMP = System.currentTimeMillis();
    private static final AtomicInteger DAGS = new AtomicInteger();

    private DagBuilder() {
    }

    /**
     * The DAG of WORK with its tasks, for RANKS ranks of TASK_MEMORY_MB each; the session's added jars are copied into
     * JAR_DIR (on the file system the ranks read: HDFS on a cluster), as Tez's client localizes them for its tasks.
     * With CONCURRENT_VERTICES the ranks run vertices side by side ({@link DagJob#concurrentVertices}).
     */
    public static DagJob build(HiveConf conf, Context context, QueryPlan queryPlan, TezWork work, int ranks,
            int taskMemoryMb, Path jarDir, boolean concurrentVertices) throws Exception {
        DagShape.check(work);
        HiveDagPlan hive = HiveDagPlan.of(conf, context, queryPlan, work, jarDir);
        DAGPlan plan = hive.plan();
        DagShape.checkRootInputs(plan);
        ApplicationId application = ApplicationId.newInstance(CLUSTER_TIMESTAMP, DAGS.incrementAndGet());
        TezDAGID dagId = TezDAGID.getInstance(application, 1);
        Map<String, SplitRequest> splitRequests = new HashMap<>();
        for (VertexPlan vertex : plan.getVertexList()) {
            if (vertex.getInputsCount() == 1) {
                SplitRequest request = splitRequest(work, plan, vertex, ranks, taskMemoryMb);
                if (request.pruned() && BucketJoin.joinsBuckets(vertex)) {
                    // The big table's splits come from MRInputAMSplitGenerator, which takes no pruning events (on
                    // Tez the query fails). Pruning only skips partitions whose rows the join drops anyway: the scan
                    // reads every partition the compiler kept, and the sources' events are not read.
                    LOG.info("{} is a bucket map join's big table: its dynamic partition pruning by {} is not applied",
                            vertex.getName(), request.eventsPerSourceTask().keySet());
                    request = new SplitRequest(request.root(), ranks, taskMemoryMb, Map.of(),
                            request.inputDirectories());
                }
                splitRequests.put(vertex.getName(), request);
            }
        }
        List<VertexPlan> order = dependencyOrder(plan, work.getAllWork().stream()
                .filter(unit -> !(unit instanceof UnionWork)).map(unit -> hive.vertex(unit.getName())).toList(),
                splitRequests);
        Map<String, VertexSplits.Made> made = ClientSplits.make(application, hive.dagName(), plan, splitRequests);
        Map<String, List<DagVertex.VertexTask>> tasks = new HashMap<>();
        Map<String, BucketJoin.Groups> bucketJoins = new HashMap<>();
        for (VertexPlan vertex : order) {
            SplitRequest request = splitRequests.get(vertex.getName());
            if (request != null && request.pruned()) {
                // Its splits are made on the ranks once its event sources have run (VertexSplits).
                tasks.put(vertex.getName(), List.of());
            } else if (request != null) {
                tasks.put(vertex.getName(), made.get(vertex.getName()).tasks());
                made.get(vertex.getName()).bucketJoin().ifPresent(groups -> bucketJoins.put(vertex.getName(), groups));
            } else {
                tasks.put(vertex.getName(), Collections.nCopies(ReducerTasks.count(conf, work, vertex, tasks,
                        splitRequests, ranks), new DagVertex.VertexTask(new byte[0], List.of())));
            }
        }
        Set<String> pruned = splitRequests.entrySet().stream().filter(request -> request.getValue().pruned())
                .map(Map.Entry::getKey).collect(Collectors.toSet());
        Map<String, List<List<Integer>>> bucketTasks = new HashMap<>();
        bucketJoins.forEach((vertex, groups) -> bucketTasks.put(vertex, groups.bucketTasks()));
        List<DagEdge> edges = EdgeRouting.route(plan, tasks, pruned, bucketTasks, ranks);
        List<DagVertex> stages = new ArrayList<>();
        for (VertexPlan vertex : order) {
            stages.add(vertex(dagId, hive.dagName(), plan, vertex, tasks, edges,
                    splitRequests.get(vertex.getName()), Optional.ofNullable(bucketJoins.get(vertex.getName()))));
        }
        return new DagJob(HiveConf.getVar(conf, HiveConf.ConfVars.HIVE_QUERY_ID), stages, edges, hive.classPath(),
                concurrentVertices);
    }

    /**
     * The vertices of PLAN in an order where each comes after every vertex it reads from and every vertex whose events
     * prune its input (SPLIT_REQUESTS say which), otherwise in WORK_ORDER (Hive's order of its work): the stages'
     * order.
     */
    static List<VertexPlan> dependencyOrder(DAGPlan plan, List<VertexPlan> workOrder,
            Map<String, SplitRequest> splitRequests) {
        List<VertexPlan> left = new ArrayList<>(workOrder);
        List<VertexPlan> order = new ArrayList<>();
        Set<String> done = new HashSet<>();
        while (!left.isEmpty()) {
            VertexPlan next = left.stream().filter(vertex -> plan.getEdgeList().stream()
                    .filter(edge -> edge.getOutputVertexName().equals(vertex.getName()))
                    .allMatch(edge -> done.contains(edge.getInputVertexName()))
                    && (!splitRequests.containsKey(vertex.getName()) || done.containsAll(
                            splitRequests.get(vertex.getName()).eventsPerSourceTask().keySet()))).findFirst()
                    .orElseThrow(() -> new IllegalStateException("The DAG plan has a cycle among "
                            + left.stream().map(VertexPlan::getName).toList()));
            left.remove(next);
            order.add(next);
            done.add(next.getName());
        }
        return order;
    }

    /** The vertex's leaf outputs (Hive's NullMROutput, through which its file sinks commit). */
    private static List<OutputSpec> leafOutputs(VertexPlan vertex) {
        List<OutputSpec> outputs = new ArrayList<>();
        for (RootInputLeafOutputProto output : vertex.getOutputsList()) {
            outputs.add(new OutputSpec(output.getName(),
                    DagTypeConverters.convertOutputDescriptorFromDAGPlan(output.getIODescriptor()), 0));
        }
        return outputs;
    }

    private static TezVertexID vertexId(TezDAGID dag, DAGPlan plan, VertexPlan vertex) {
        return TezVertexID.getInstance(dag, plan.getVertexList().indexOf(vertex));
    }

    /**
     * A vertex's stage: Hive's processor, its root input (with the split the task gets; for a bucket map join's big
     * table, BUCKET_JOIN, reading the grouped splits its vertex manager made) or the inputs of its edges, its leaf
     * outputs and the outputs of its edges, the edges' Tez classes replaced by datampi's, their payloads kept.
     */
    static DagVertex vertex(TezDAGID dagId, String dagName, DAGPlan plan, VertexPlan vertex,
            Map<String, List<DagVertex.VertexTask>> tasks, List<DagEdge> edges, SplitRequest splits,
            Optional<BucketJoin.Groups> bucketJoin) {
        List<InputSpec> inputs = new ArrayList<>();
        String rootInput = "";
        if (vertex.getInputsCount() == 1) {
            RootInputLeafOutputProto root = vertex.getInputs(0);
            rootInput = root.getName();
            InputDescriptor input = DagTypeConverters.convertInputDescriptorFromDAGPlan(root.getIODescriptor());
            bucketJoin.ifPresent(groups -> input.setUserPayload(groups.inputPayload()));
            inputs.add(new InputSpec(root.getName(), input, 1));
        }
        List<OutputSpec> outputs = leafOutputs(vertex);
        Map<String, Integer> inputSenders = new HashMap<>();
        for (DagEdge edge : edges) {
            if (edge.destination().equals(vertex.getName())) {
                // A one-to-one edge's destination task reads one source task's output, as under Tez.
                inputSenders.merge(edge.input(), edge.routing() == DagEdge.Routing.ONE_TO_ONE ? 1
                        : tasks.get(edge.source()).size(), Integer::sum);
            }
        }
        for (EdgePlan edge : plan.getEdgeList()) {
            DagEdge routed = edges.get(plan.getEdgeList().indexOf(edge));
            if (edge.getOutputVertexName().equals(vertex.getName())
                    && inputs.stream().noneMatch(input -> input.getSourceVertexName().equals(routed.input()))) {
                // One input per edge, or per union: its members' pairs come merged in one stream.
                InputDescriptor hive = DagTypeConverters.convertInputDescriptorFromDAGPlan(edge.getEdgeDestination());
                String ours = routed.routing() == DagEdge.Routing.SORTED ? DagJob.GROUPED_INPUT
                        : DagJob.UNORDERED_INPUT;
                inputs.add(new InputSpec(routed.input(), InputDescriptor.create(ours)
                        .setUserPayload(hive.getUserPayload()), Math.max(1, inputSenders.get(routed.input()))));
            }
            if (edge.getInputVertexName().equals(vertex.getName())) {
                OutputDescriptor hive = DagTypeConverters.convertOutputDescriptorFromDAGPlan(edge.getEdgeSource());
                outputs.add(new OutputSpec(edge.getOutputVertexName(), OutputDescriptor.create(DagJob.SHUFFLE_OUTPUT)
                        .setUserPayload(hive.getUserPayload()), routed.sourcePartitions()));
            }
        }
        Configuration vertexOnly = new Configuration(false);
        for (PlanKeyValuePair setting : vertex.getVertexConf().getConfKeyValuesList()) {
            vertexOnly.set(setting.getKey(), setting.getValue());
        }
        List<DagVertex.VertexTask> vertexTasks = tasks.get(vertex.getName());
        TezTaskAttemptID first = TezTaskAttemptID.getInstance(TezTaskID.getInstance(vertexId(dagId, plan, vertex), 0),
                0);
        TaskSpec template = new TaskSpec(first, dagName, vertex.getName(), vertexTasks.size(),
                DagTypeConverters.convertProcessorDescriptorFromDAGPlan(vertex.getProcessorDescriptor()), inputs,
                outputs, null, vertexOnly);
        return splits != null && splits.pruned() ? DagVertex.deferred(template, splits)
                : new DagVertex(template, rootInput, vertexTasks, Optional.empty(), bucketJoin.isPresent());
    }

    /**
     * What the vertex's split generator is asked with: its root input, and for a scan whose partitions other
     * vertices' events prune (Hive's MapWork names them, with one table per pruned column) those vertices.
     */
    private static SplitRequest splitRequest(TezWork work, DAGPlan plan, VertexPlan vertex, int ranks,
            int taskMemoryMb) throws HiveException {
        Map<String, Integer> eventsPerSourceTask = new HashMap<>();
        int directories = 0;
        BaseWork unit = work.getAllWork().stream().filter(w -> w.getName().equals(vertex.getName())).findFirst()
                .orElseThrow();
        if (unit instanceof MapWork scan) {
            directories = scan.getPathToAliases().size();
            for (Map.Entry<String, List<TableDesc>> source : scan.getEventSourceTableDescMap().entrySet()) {
                if (plan.getVertexList().stream().noneMatch(v -> v.getName().equals(source.getKey()))) {
                    throw new HiveException("The partitions of " + vertex.getName() + " are pruned by events of "
                            + source.getKey() + ", which is not a vertex of the DAG");
                }
                eventsPerSourceTask.put(source.getKey(), source.getValue().size());
            }
        }
        return new SplitRequest(vertex.getInputs(0), ranks, taskMemoryMb, eventsPerSourceTask, directories);
    }
}
