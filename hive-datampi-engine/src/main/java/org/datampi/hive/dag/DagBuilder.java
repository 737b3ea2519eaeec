package org.datampi.hive.dag;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.Context;
import org.apache.hadoop.hive.ql.QueryPlan;
import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.exec.tez.DagUtils;
import org.apache.hadoop.hive.ql.exec.tez.HiveSplitGenerator;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.hive.ql.plan.BaseWork;
import org.apache.hadoop.hive.ql.plan.MapWork;
import org.apache.hadoop.hive.ql.plan.MergeJoinWork;
import org.apache.hadoop.hive.ql.plan.ReduceSinkDesc;
import org.apache.hadoop.hive.ql.plan.ReduceSinkDesc.ReducerTraits;
import org.apache.hadoop.hive.ql.plan.UnionWork;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.apache.hadoop.hive.ql.plan.TezEdgeProperty;
import org.apache.hadoop.hive.ql.plan.TezWork;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.tez.common.TezUtils;
import org.apache.tez.dag.api.DAG;
import org.apache.tez.dag.api.DagTypeConverters;
import org.apache.tez.dag.api.InputDescriptor;
import org.apache.tez.dag.api.InputInitializerDescriptor;
import org.apache.tez.dag.api.OutputDescriptor;
import org.apache.tez.dag.api.ProcessorDescriptor;
import org.apache.tez.dag.api.Vertex;
import org.apache.tez.dag.api.VertexGroup;
import org.apache.tez.dag.api.VertexLocationHint;
import org.apache.tez.dag.api.records.DAGProtos.DAGPlan;
import org.apache.tez.dag.api.records.DAGProtos.EdgePlan;
import org.apache.tez.dag.api.records.DAGProtos.PlanKeyValuePair;
import org.apache.tez.dag.api.records.DAGProtos.RootInputLeafOutputProto;
import org.apache.tez.dag.api.records.DAGProtos.VertexPlan;
import org.apache.tez.dag.records.TezDAGID;
import org.apache.tez.dag.records.TezTaskAttemptID;
import org.apache.tez.dag.records.TezTaskID;
import org.apache.tez.dag.records.TezVertexID;
import org.apache.tez.mapreduce.common.MRInputAMSplitGenerator;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.InputInitializer;
import org.apache.tez.runtime.api.events.InputConfigureVertexTasksEvent;
import org.apache.tez.runtime.api.events.InputDataInformationEvent;
import org.apache.tez.runtime.api.impl.InputSpec;
import org.apache.tez.runtime.api.impl.OutputSpec;
import org.apache.tez.runtime.api.impl.TaskSpec;
import org.apache.tez.serviceplugins.api.ServicePluginsDescriptor;
import org.datampi.hive.client.JobPlan;

/**
 * Builds a DAG for the ranks from Hive's TezWork, on the client, the way Hive's TezTask builds its DAG for Tez
 * (DagUtils: the job and vertex configurations, each vertex with its processor, root input and outputs, each edge with
 * its output and input), and then does what Tez's application master would: decodes the vertices and edges from the
 * DAG plan, runs the root input's initializer (Hive's HiveSplitGenerator) for the splits and the hosts that hold
 * them, and gives every task its spec. Each edge becomes a stream of datampi's shuffle ({@link DagEdge}): its Tez
 * classes are replaced by datampi's ({@link DagJob#SHUFFLE_OUTPUT}, {@link DagJob#GROUPED_INPUT},
 * {@link DagJob#UNORDERED_INPUT}); the payloads stay Hive's.
 *
 * <p>Run so far (docs/dag-mode.md): any DAG of map vertices with one root input and reduce vertices over
 * scatter-gather (sorted or not) and broadcast edges, unions and reduce-side merge joins included (a union's
 * members send to one stream). Merge joins of map vertices, custom (bucket), one-to-one and cross-product edges are
 * refused here, before anything is read or written.
 */
public final class DagBuilder {
    /** One application id per DAG of this JVM: Hive names task attempts, and so output files, after it. */
    private static final long CLUSTER_TIMESTAMP = System.currentTimeMillis();
    private static final AtomicInteger DAGS = new AtomicInteger();

    private DagBuilder() {
    }

    /**
     * The DAG of WORK with its tasks, for RANKS ranks of TASK_MEMORY_MB each; the session's added jars are copied into
     * JAR_DIR (on the file system the ranks read: HDFS on a cluster), as Tez's client localizes them for its tasks.
     */
    public static DagJob build(HiveConf conf, Context context, QueryPlan queryPlan, TezWork work, int ranks,
            int taskMemoryMb, Path jarDir) throws Exception {
        checkShape(work);
        DagUtils utils = DagUtils.getInstance();
        JobConf jobConf = utils.createConfiguration(conf, false);
        // The session's ADD JAR jars, as Hive's ExecDriver lists them for a MapReduce job, and the jars the plan names.
        Set<String> jars = new LinkedHashSet<>();
        String added = Utilities.getResourceFiles(conf, SessionState.ResourceType.JAR);
        if (added != null && !added.isBlank()) {
            jars.addAll(List.of(added.split(",")));
        }
        String[] planJars = work.configureJobConfAndExtractJars(jobConf);
        if (planJars != null) {
            jars.addAll(List.of(planJars));
        }
        List<String> classPath = copyJars(jars, jarDir, conf);
        Path scratchDir = utils.createTezDir(context.getMRScratchDir(), conf);
        String dagName = utils.createDagName(conf, queryPlan);
        DAG dag = DAG.create(dagName);
        dag.setConf(HiveConf.ConfVars.HIVE_QUERY_ID.varname, HiveConf.getVar(conf, HiveConf.ConfVars.HIVE_QUERY_ID));
        // As TezTask.build: the vertices from the leaves up, each with the edges to its children.
        List<BaseWork> bottomUp = new ArrayList<>(work.getAllWork());
        Collections.reverse(bottomUp);
        Map<BaseWork, Vertex> vertices = new HashMap<>();
        Map<BaseWork, JobConf> vertexConfs = new HashMap<>();
        for (BaseWork unit : bottomUp) {
            if (unit instanceof UnionWork union) {
                addVertexGroup(dag, utils, work, union, vertices, vertexConfs);
                continue;
            }
            JobConf vertexConf = utils.initializeVertexConf(jobConf, context, unit);
            vertexConfs.put(unit, vertexConf);
            Vertex vertex = utils.createVertex(vertexConf, unit, scratchDir, work, Map.of());
            dag.addVertex(vertex);
            vertices.put(unit, vertex);
            for (BaseWork child : work.getChildren(unit)) {
                dag.addEdge(utils.createEdge(vertexConf, vertex, vertices.get(child),
                        work.getEdgeProperty(unit, child), child, work));
            }
        }
        // As TezTask does once its DAG is built: the plans it cached while building are the tasks' business now.
        Utilities.clearWorkMap(conf);
        DAGPlan plan = dag.createDag(jobConf, null, Map.of(), null, false, ServicePluginsDescriptor.create(true),
                null);

        ApplicationId application = ApplicationId.newInstance(CLUSTER_TIMESTAMP, DAGS.incrementAndGet());
        TezDAGID dagId = TezDAGID.getInstance(application, 1);
        List<VertexPlan> order = dependencyOrder(plan, work);
        Map<String, List<DagVertex.VertexTask>> tasks = new HashMap<>();
        for (VertexPlan vertex : order) {
            TezVertexID id = vertexId(dagId, plan, vertex);
            if (vertex.getInputsCount() > 1) {
                throw new HiveException("datampi's DAG mode runs map vertices of one root input so far; "
                        + vertex.getName() + " has " + vertex.getInputsCount());
            }
            if (vertex.getInputsCount() == 1) {
                tasks.put(vertex.getName(), splits(application, dagName, id, vertex, vertex.getInputs(0), ranks,
                        taskMemoryMb));
            } else {
                tasks.put(vertex.getName(), Collections.nCopies(taskCount(conf, work, plan, vertex, tasks, ranks),
                        new DagVertex.VertexTask(new byte[0], List.of())));
            }
        }
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
            if (routed.routing() != DagEdge.Routing.BROADCAST
                    && vertexPlan(plan, edge.getOutputVertexName()).getInputsCount() > 0) {
                throw new HiveException("datampi's DAG mode sends only broadcast edges to a vertex that reads splits; "
                        + edge.getInputVertexName() + " -> " + edge.getOutputVertexName() + " is "
                        + edge.getDataMovementType());
            }
            edges.add(routed);
            partitions += routed.partitions();
        }
        List<DagVertex> stages = new ArrayList<>();
        for (VertexPlan vertex : order) {
            stages.add(vertex(dagId, dagName, plan, vertex, tasks, edges));
        }
        return new DagJob(HiveConf.getVar(conf, HiveConf.ConfVars.HIVE_QUERY_ID), stages, edges, classPath);
    }

    /** Copies each jar into JAR_DIR; returns the copies' URIs. */
    private static List<String> copyJars(Set<String> jars, Path jarDir, Configuration conf) throws IOException {
        List<String> copies = new ArrayList<>();
        FileSystem target = jarDir.getFileSystem(conf);
        for (String jar : jars) {
            Path source = new Path(jar);
            Path copy = new Path(jarDir, copies.size() + "-" + source.getName());
            FileUtil.copy(source.getFileSystem(conf), source, target, copy, false, conf);
            copies.add(target.makeQualified(copy).toUri().toString());
        }
        return copies;
    }

    /** Refuses, before anything is read or written, what the ranks do not run yet, naming it. */
    private static void checkShape(TezWork work) throws HiveException {
        String refusal = "datampi's DAG mode does not run %s yet (docs/dag-mode.md); EXPLAIN shows the DAG; SET "
                + "hive.datampi.plan=mapreduce runs the query";
        for (BaseWork unit : work.getAllWork()) {
            // A merge join in a reduce vertex reads two sorted edges, which the ranks run; one in a map vertex
            // (a sort-merge bucket join, turned off for DAG queries) reads two tables' buckets side by side.
            if (unit instanceof MergeJoinWork merge && merge.getMainWork() instanceof MapWork) {
                throw new HiveException(String.format(refusal, "the sort-merge join of map vertex " + unit.getName()));
            }
            for (BaseWork child : work.getChildren(unit)) {
                TezEdgeProperty.EdgeType type = work.getEdgeProperty(unit, child).getEdgeType();
                if (!RUN_EDGES.contains(type) && type != TezEdgeProperty.EdgeType.CONTAINS) {
                    throw new HiveException(String.format(refusal, "the " + type + " from " + unit.getName()
                            + " to " + child.getName()));
                }
            }
        }
    }

    private static final Set<TezEdgeProperty.EdgeType> RUN_EDGES = EnumSet.of(TezEdgeProperty.EdgeType.SIMPLE_EDGE,
            TezEdgeProperty.EdgeType.BROADCAST_EDGE, TezEdgeProperty.EdgeType.CUSTOM_SIMPLE_EDGE);

    /**
     * The tasks of a vertex fed by edges only, as the mapreduce shape decides its A tasks (JobPlan,
     * hive.datampi.parallelism; enhanced: as many as its largest input vertex's, one for a leaf): a count Hive
     * estimated (256 MB per reducer, for a cluster with many more reducer slots than stages) is raised to one per
     * rank; a count Hive fixed (ORDER BY, bucketing, mapreduce.job.reduces) is kept.
     */
    private static int taskCount(HiveConf conf, TezWork work, DAGPlan plan, VertexPlan vertex,
            Map<String, List<DagVertex.VertexTask>> tasks, int ranks) throws HiveException {
        int hiveTasks = vertex.getTaskConfig().getNumTasks();
        if (hiveTasks < 1) {
            throw new HiveException("datampi's DAG mode needs a fixed task count for " + vertex.getName() + " (got "
                    + hiveTasks + ")");
        }
        BaseWork unit = work.getAllWork().stream().filter(w -> w.getName().equals(vertex.getName())).findFirst()
                .orElseThrow();
        int sourceTasks = 1;
        boolean estimated = true;
        for (BaseWork parent : work.getParents(unit)) {
            TezEdgeProperty.EdgeType type = work.getEdgeProperty(parent, unit).getEdgeType();
            if (type == TezEdgeProperty.EdgeType.CONTAINS) {
                // The vertex is a member of the union (its rows are the union's), not fed by it.
                continue;
            }
            // A union's members send to the vertex as one input.
            List<BaseWork> senders = parent instanceof UnionWork ? unionMembers(work, parent) : List.of(parent);
            for (BaseWork sender : senders) {
                sourceTasks = Math.max(sourceTasks, tasks.get(sender.getName()).size());
                estimated &= type == TezEdgeProperty.EdgeType.SIMPLE_EDGE && estimated(sender, unit.getName());
            }
        }
        // Enhanced parallelism gives the query's last vertex (one writing, not feeding another) one task, as the
        // last stage of a query in the mapreduce shape.
        boolean last = work.getChildren(unit).isEmpty();
        return JobPlan.of(conf, ranks, sourceTasks, hiveTasks, !estimated, last).aTasks();
    }

    /** Whether Hive estimated the task count of the vertex CHILD from PARENT's reduce sinks (they may change it). */
    private static boolean estimated(BaseWork parent, String child) {
        // Row-mode and vectorized reduce sinks alike (a VectorReduceSinkOperator is no ReduceSinkOperator).
        List<ReduceSinkDesc> sinks = parent.getAllOperators().stream().map(Operator::getConf)
                .filter(ReduceSinkDesc.class::isInstance).map(ReduceSinkDesc.class::cast)
                .filter(sink -> child.equals(sink.getOutputName())).toList();
        return !sinks.isEmpty() && sinks.stream()
                .allMatch(sink -> sink.getReducerTraits().contains(ReducerTraits.AUTOPARALLEL));
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

    /**
     * A union as TezTask.build makes it: a vertex group of its members, with a group edge to each of the union's own
     * children (from the first member's configuration: the members' outputs share key, value and partitioner).
     */
    private static void addVertexGroup(DAG dag, DagUtils utils, TezWork work, UnionWork union,
            Map<BaseWork, Vertex> vertices, Map<BaseWork, JobConf> vertexConfs) throws Exception {
        List<BaseWork> members = unionMembers(work, union);
        VertexGroup group = dag.createVertexGroup(union.getName(),
                members.stream().map(vertices::get).toArray(Vertex[]::new));
        for (BaseWork child : work.getChildren(union)) {
            if (!members.contains(child)) {
                dag.addEdge(utils.createEdge(group, vertexConfs.get(members.get(0)), vertices.get(child),
                        work.getEdgeProperty(union, child), child, work));
            }
        }
    }

    /** The vertices a union is made of (its children over CONTAINS edges). */
    private static List<BaseWork> unionMembers(TezWork work, BaseWork union) {
        return work.getChildren(union).stream().filter(child -> work.getEdgeProperty(union, child).getEdgeType()
                == TezEdgeProperty.EdgeType.CONTAINS).toList();
    }

    /** The name under which the edge's destination reads it: its source vertex's, or its union's (vertex group). */
    private static String inputName(DAGPlan plan, EdgePlan edge) {
        return plan.getVertexGroupsList().stream()
                .filter(group -> group.getGroupMembersList().contains(edge.getInputVertexName())
                        && group.getEdgeMergedInputsList().stream()
                                .anyMatch(merged -> merged.getDestVertexName().equals(edge.getOutputVertexName())))
                .map(group -> group.getGroupName()).findFirst().orElse(edge.getInputVertexName());
    }

    /**
     * The vertices in an order where each comes after every vertex it reads from (the stages' order), otherwise in
     * Hive's order of its work.
     */
    private static List<VertexPlan> dependencyOrder(DAGPlan plan, TezWork work) {
        List<VertexPlan> left = new ArrayList<>(work.getAllWork().stream().filter(unit -> !(unit instanceof UnionWork))
                .map(unit -> vertexPlan(plan, unit.getName())).toList());
        List<VertexPlan> order = new ArrayList<>();
        Set<String> done = new HashSet<>();
        while (!left.isEmpty()) {
            VertexPlan next = left.stream().filter(vertex -> plan.getEdgeList().stream()
                    .filter(edge -> edge.getOutputVertexName().equals(vertex.getName()))
                    .allMatch(edge -> done.contains(edge.getInputVertexName()))).findFirst()
                    .orElseThrow(() -> new IllegalStateException("The DAG plan has a cycle among " + left));
            left.remove(next);
            order.add(next);
            done.add(next.getName());
        }
        return order;
    }

    private static VertexPlan vertexPlan(DAGPlan plan, String name) {
        return plan.getVertexList().stream().filter(vertex -> vertex.getName().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("No vertex " + name + " in the DAG plan"));
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
     * A vertex's stage: Hive's processor, its root input (with the split the task gets) or the inputs of its edges,
     * its leaf outputs and the outputs of its edges, the edges' Tez classes replaced by datampi's, their payloads
     * kept.
     */
    private static DagVertex vertex(TezDAGID dagId, String dagName, DAGPlan plan, VertexPlan vertex,
            Map<String, List<DagVertex.VertexTask>> tasks, List<DagEdge> edges) {
        List<InputSpec> inputs = new ArrayList<>();
        String rootInput = "";
        if (vertex.getInputsCount() == 1) {
            RootInputLeafOutputProto root = vertex.getInputs(0);
            rootInput = root.getName();
            inputs.add(new InputSpec(root.getName(),
                    DagTypeConverters.convertInputDescriptorFromDAGPlan(root.getIODescriptor()), 1));
        }
        List<OutputSpec> outputs = leafOutputs(vertex);
        Map<String, Integer> inputSenders = new HashMap<>();
        for (DagEdge edge : edges) {
            if (edge.destination().equals(vertex.getName())) {
                inputSenders.merge(edge.input(), tasks.get(edge.source()).size(), Integer::sum);
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
                        .setUserPayload(hive.getUserPayload()), routed.partitions()));
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
        return new DagVertex(template, rootInput, vertexTasks);
    }

    /** The root input's splits, from Hive's split generator run as Tez's application master runs it. */
    private static List<DagVertex.VertexTask> splits(ApplicationId application, String dagName, TezVertexID vertexId,
            VertexPlan vertex, RootInputLeafOutputProto root, int ranks, int taskMemoryMb) throws Exception {
        ProcessorDescriptor processor =
                DagTypeConverters.convertProcessorDescriptorFromDAGPlan(vertex.getProcessorDescriptor());
        InputDescriptor input = DagTypeConverters.convertInputDescriptorFromDAGPlan(root.getIODescriptor());
        InputInitializerDescriptor initializer =
                DagTypeConverters.convertInputInitializerDescriptorFromDAGPlan(root.getControllerDescriptor());
        SplitGeneratorContext splitContext = new SplitGeneratorContext(application, dagName,
                TezUtils.createConfFromUserPayload(processor.getUserPayload()), root.getName(),
                input.getUserPayload(), initializer.getUserPayload(), vertexId.getId(), ranks, taskMemoryMb);
        // Hive's own generator for HiveInputFormat (it groups splits); Tez's plain one for any other input format
        // (DagUtils.createVertex), such as the one-row input of a query without a table.
        InputInitializer generator;
        if (initializer.getClassName().equals(HiveSplitGenerator.class.getName())) {
            generator = new HiveSplitGenerator(splitContext);
        } else if (initializer.getClassName().equals(MRInputAMSplitGenerator.class.getName())) {
            generator = new MRInputAMSplitGenerator(splitContext);
        } else {
            throw new HiveException("datampi's DAG mode takes splits from HiveSplitGenerator or "
                    + "MRInputAMSplitGenerator, not " + initializer.getClassName() + " (" + vertex.getName() + ")");
        }
        List<byte[]> splits = new ArrayList<>();
        List<List<String>> hosts = List.of();
        for (Event event : generator.initialize()) {
            if (event instanceof InputConfigureVertexTasksEvent configure) {
                hosts = hostsOf(configure.getLocationHint(), configure.getNumTasks());
            } else if (event instanceof InputDataInformationEvent split) {
                if (split.getSerializedPath() != null) {
                    throw new HiveException("The splits of " + vertex.getName() + " were written to "
                            + split.getSerializedPath() + " (hive.tez.input.fs.serialization.threshold), which "
                            + "datampi's DAG mode does not read yet");
                }
                if (split.getUserPayload() == null) {
                    throw new HiveException("The splits of " + vertex.getName() + " came as objects, not "
                            + "serialized (mapreduce.tez.input.initializer.serialize.event.payload=false), which "
                            + "datampi's DAG mode does not take");
                }
                ByteBuffer payload = split.getUserPayload().duplicate();
                byte[] bytes = new byte[payload.remaining()];
                payload.get(bytes);
                splits.add(bytes);
            }
        }
        List<DagVertex.VertexTask> tasks = new ArrayList<>(splits.size());
        for (int task = 0; task < splits.size(); task++) {
            tasks.add(new DagVertex.VertexTask(splits.get(task), task < hosts.size() ? hosts.get(task) : List.of()));
        }
        return tasks;
    }

    private static List<List<String>> hostsOf(VertexLocationHint hint, int tasks) {
        List<List<String>> hosts = new ArrayList<>();
        if (hint == null || hint.getTaskLocationHints() == null) {
            return hosts;
        }
        hint.getTaskLocationHints().forEach(task -> hosts.add(task == null || task.getHosts() == null ? List.of()
                : List.copyOf(task.getHosts())));
        return hosts.size() == tasks ? hosts : List.of();
    }
}
