package org.datampi.hive.dag;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.conf.Configuration;
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
import org.apache.hadoop.hive.ql.plan.ReduceSinkDesc;
import org.apache.hadoop.hive.ql.plan.ReduceSinkDesc.ReducerTraits;
import org.apache.hadoop.hive.ql.plan.ReduceWork;
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
import org.apache.tez.runtime.api.Event;
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
 * them, and gives every task its spec. The scatter-gather edge's Tez classes are replaced by datampi's shuffle
 * ({@link DagJob#SHUFFLE_OUTPUT}, {@link DagJob#SHUFFLE_INPUT}); the payloads stay Hive's.
 *
 * <p>The shapes run so far (docs/dag-mode.md): one map vertex, or a map vertex and a reduce vertex over one
 * scatter-gather edge. Any other DAG is refused here, before anything is read or written.
 */
public final class DagBuilder {
    /** One application id per DAG of this JVM: Hive names task attempts, and so output files, after it. */
    private static final long CLUSTER_TIMESTAMP = System.currentTimeMillis();
    private static final AtomicInteger DAGS = new AtomicInteger();

    private DagBuilder() {
    }

    /** The DAG of WORK with its tasks, for RANKS ranks of TASK_MEMORY_MB each. */
    public static DagJob build(HiveConf conf, Context context, QueryPlan queryPlan, TezWork work, int ranks,
            int taskMemoryMb) throws Exception {
        MapWork map = checkShape(work);
        DagUtils utils = DagUtils.getInstance();
        JobConf jobConf = utils.createConfiguration(conf, false);
        String[] jars = work.configureJobConfAndExtractJars(jobConf);
        if (jars != null && jars.length > 0) {
            throw new HiveException("datampi's DAG mode does not take a session's added jars to the ranks yet ("
                    + String.join(", ", jars) + "); SET hive.datampi.plan=mapreduce runs the query");
        }
        Path scratchDir = utils.createTezDir(context.getMRScratchDir(), conf);
        String dagName = utils.createDagName(conf, queryPlan);
        DAG dag = DAG.create(dagName);
        dag.setConf(HiveConf.ConfVars.HIVE_QUERY_ID.varname, HiveConf.getVar(conf, HiveConf.ConfVars.HIVE_QUERY_ID));
        // As TezTask.build: the vertices from the leaves up, each with the edges to its children.
        List<BaseWork> bottomUp = new ArrayList<>(work.getAllWork());
        Collections.reverse(bottomUp);
        Map<BaseWork, Vertex> vertices = new HashMap<>();
        for (BaseWork unit : bottomUp) {
            JobConf vertexConf = utils.initializeVertexConf(jobConf, context, unit);
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
        VertexPlan mapPlan = vertexPlan(plan, map.getName());
        TezVertexID mapId = TezVertexID.getInstance(dagId, plan.getVertexList().indexOf(mapPlan));
        if (mapPlan.getInputsCount() != 1) {
            throw new HiveException("datampi's DAG mode runs map vertices of one root input so far; " + map.getName()
                    + " has " + mapPlan.getInputsCount());
        }
        RootInputLeafOutputProto root = mapPlan.getInputs(0);
        InputDescriptor rootInput = DagTypeConverters.convertInputDescriptorFromDAGPlan(root.getIODescriptor());
        ProcessorDescriptor mapProcessor =
                DagTypeConverters.convertProcessorDescriptorFromDAGPlan(mapPlan.getProcessorDescriptor());
        List<DagVertex.VertexTask> mapTasks = splits(application, dagName, mapId, mapPlan, mapProcessor, root,
                rootInput, ranks, taskMemoryMb);

        List<OutputSpec> mapOutputs = leafOutputs(mapPlan);
        List<InputSpec> mapInputs = List.of(new InputSpec(root.getName(), rootInput, 1));
        if (plan.getEdgeList().isEmpty()) {
            return new DagJob(List.of(vertex(mapId, dagName, mapPlan, mapProcessor, mapInputs, mapOutputs,
                    root.getName(), mapTasks)));
        }
        EdgePlan edge = plan.getEdgeList().get(0);
        VertexPlan reducePlan = vertexPlan(plan, edge.getOutputVertexName());
        int reduceTasks = reducePlan.getTaskConfig().getNumTasks();
        if (reduceTasks < 1) {
            throw new HiveException("datampi's DAG mode needs a fixed task count for " + reducePlan.getName()
                    + " (got " + reduceTasks + ")");
        }
        // The A tasks as the mapreduce shape decides them (JobPlan, hive.datampi.parallelism): a count Hive estimated
        // (256 MB per reducer, for a cluster with many more reducer slots than stages) is raised to one per rank; a
        // count Hive fixed (ORDER BY, bucketing, mapreduce.job.reduces) is kept.
        reduceTasks = JobPlan.of(conf, ranks, mapTasks.size(), reduceTasks, !estimated(map), true).aTasks();
        OutputDescriptor sortedOutput = DagTypeConverters.convertOutputDescriptorFromDAGPlan(edge.getEdgeSource());
        InputDescriptor groupedInput = DagTypeConverters.convertInputDescriptorFromDAGPlan(edge.getEdgeDestination());
        mapOutputs.add(new OutputSpec(reducePlan.getName(), OutputDescriptor.create(DagJob.SHUFFLE_OUTPUT)
                .setUserPayload(sortedOutput.getUserPayload()), reduceTasks));
        TezVertexID reduceId = TezVertexID.getInstance(dagId, plan.getVertexList().indexOf(reducePlan));
        List<DagVertex.VertexTask> reduceTaskList = Collections.nCopies(reduceTasks,
                new DagVertex.VertexTask(new byte[0], List.of()));
        return new DagJob(List.of(
                vertex(mapId, dagName, mapPlan, mapProcessor, mapInputs, mapOutputs, root.getName(), mapTasks),
                vertex(reduceId, dagName, reducePlan,
                        DagTypeConverters.convertProcessorDescriptorFromDAGPlan(reducePlan.getProcessorDescriptor()),
                        List.of(new InputSpec(mapPlan.getName(), InputDescriptor.create(DagJob.SHUFFLE_INPUT)
                                .setUserPayload(groupedInput.getUserPayload()), Math.max(1, mapTasks.size()))),
                        leafOutputs(reducePlan), "", reduceTaskList)));
    }

    /** The map vertex of the shapes the ranks run, or a refusal naming what is not run yet. */
    private static MapWork checkShape(TezWork work) throws HiveException {
        List<BaseWork> all = work.getAllWork();
        String refusal = "datampi's DAG mode runs a map vertex, or a map vertex and a reduce vertex over one sorted "
                + "edge, so far (docs/dag-mode.md); this DAG has " + all.size() + " vertices: EXPLAIN shows it; SET "
                + "hive.datampi.plan=mapreduce runs the query";
        if (all.size() == 1 && all.get(0) instanceof MapWork map) {
            return map;
        }
        if (all.size() == 2 && all.get(0) instanceof MapWork map && all.get(1) instanceof ReduceWork reduce
                && work.getChildren(map).equals(List.of(reduce))
                && work.getEdgeProperty(map, reduce).getEdgeType() == TezEdgeProperty.EdgeType.SIMPLE_EDGE) {
            return map;
        }
        throw new HiveException(refusal);
    }

    /** Whether Hive estimated the reducer count behind the map vertex (its reduce sinks may change it). */
    private static boolean estimated(MapWork map) {
        // Row-mode and vectorized reduce sinks alike (a VectorReduceSinkOperator is no ReduceSinkOperator).
        List<ReduceSinkDesc> sinks = map.getAllOperators().stream().map(Operator::getConf)
                .filter(ReduceSinkDesc.class::isInstance).map(ReduceSinkDesc.class::cast).toList();
        return !sinks.isEmpty() && sinks.stream()
                .allMatch(sink -> sink.getReducerTraits().contains(ReducerTraits.AUTOPARALLEL));
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

    private static DagVertex vertex(TezVertexID id, String dagName, VertexPlan plan, ProcessorDescriptor processor,
            List<InputSpec> inputs, List<OutputSpec> outputs, String rootInput, List<DagVertex.VertexTask> tasks) {
        Configuration vertexOnly = new Configuration(false);
        for (PlanKeyValuePair setting : plan.getVertexConf().getConfKeyValuesList()) {
            vertexOnly.set(setting.getKey(), setting.getValue());
        }
        TezTaskAttemptID first = TezTaskAttemptID.getInstance(TezTaskID.getInstance(id, 0), 0);
        TaskSpec template = new TaskSpec(first, dagName, plan.getName(), tasks.size(), processor,
                new ArrayList<>(inputs), new ArrayList<>(outputs), null, vertexOnly);
        return new DagVertex(template, rootInput, tasks);
    }

    /** The root input's splits, from Hive's split generator run as Tez's application master runs it. */
    private static List<DagVertex.VertexTask> splits(ApplicationId application, String dagName, TezVertexID vertexId,
            VertexPlan vertex, ProcessorDescriptor processor, RootInputLeafOutputProto root, InputDescriptor input,
            int ranks, int taskMemoryMb) throws Exception {
        InputInitializerDescriptor initializer =
                DagTypeConverters.convertInputInitializerDescriptorFromDAGPlan(root.getControllerDescriptor());
        if (!initializer.getClassName().equals(HiveSplitGenerator.class.getName())) {
            throw new HiveException("datampi's DAG mode takes splits from HiveSplitGenerator, not "
                    + initializer.getClassName());
        }
        SplitGeneratorContext splitContext = new SplitGeneratorContext(application, dagName,
                TezUtils.createConfFromUserPayload(processor.getUserPayload()), root.getName(),
                input.getUserPayload(), initializer.getUserPayload(), vertexId.getId(), ranks, taskMemoryMb);
        List<byte[]> splits = new ArrayList<>();
        List<List<String>> hosts = List.of();
        for (Event event : new HiveSplitGenerator(splitContext).initialize()) {
            if (event instanceof InputConfigureVertexTasksEvent configure) {
                hosts = hostsOf(configure.getLocationHint(), configure.getNumTasks());
            } else if (event instanceof InputDataInformationEvent split) {
                if (split.getSerializedPath() != null) {
                    throw new HiveException("The splits of " + vertex.getName() + " were written to "
                            + split.getSerializedPath() + " (hive.tez.input.fs.serialization.threshold), which "
                            + "datampi's DAG mode does not read yet");
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
