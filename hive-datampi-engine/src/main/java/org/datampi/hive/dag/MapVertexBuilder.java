package org.datampi.hive.dag;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.Context;
import org.apache.hadoop.hive.ql.QueryPlan;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.exec.tez.DagUtils;
import org.apache.hadoop.hive.ql.exec.tez.HiveSplitGenerator;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.hive.ql.plan.MapWork;
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
import org.apache.tez.dag.api.VertexLocationHint;
import org.apache.tez.dag.api.records.DAGProtos.DAGPlan;
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

/**
 * Builds a map vertex for the ranks from Hive's TezWork, on the client, the way Hive's TezTask builds its DAG for Tez
 * (DagUtils: the job and vertex configurations, the vertex with its processor, root input and output), and then does
 * what Tez's application master would: decodes the vertex from the DAG plan and runs the input's initializer, Hive's
 * HiveSplitGenerator, for the splits and the hosts that hold them.
 */
public final class MapVertexBuilder {
    /** One application id per DAG of this JVM: Hive names task attempts, and so output files, after it. */
    private static final long CLUSTER_TIMESTAMP = System.currentTimeMillis();
    private static final AtomicInteger DAGS = new AtomicInteger();

    private MapVertexBuilder() {
    }

    /** The vertex of a TezWork of one MapWork, with one task per split for RANKS ranks of TASK_MEMORY_MB each. */
    public static DagVertex build(HiveConf conf, Context context, QueryPlan queryPlan, TezWork work, MapWork map,
            int ranks, int taskMemoryMb) throws Exception {
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
        JobConf vertexConf = utils.initializeVertexConf(jobConf, context, map);
        dag.addVertex(utils.createVertex(vertexConf, map, scratchDir, work, Map.of()));
        // As TezTask does once its DAG is built: the plans it cached while building are the tasks' business now.
        Utilities.clearWorkMap(conf);
        DAGPlan plan = dag.createDag(jobConf, null, Map.of(), null, false, ServicePluginsDescriptor.create(true),
                null);
        VertexPlan vertex = plan.getVertex(0);
        if (vertex.getInputsCount() != 1) {
            throw new HiveException("datampi's DAG mode runs map vertices of one root input so far; " + map.getName()
                    + " has " + vertex.getInputsCount());
        }
        ProcessorDescriptor processor =
                DagTypeConverters.convertProcessorDescriptorFromDAGPlan(vertex.getProcessorDescriptor());
        RootInputLeafOutputProto root = vertex.getInputs(0);
        InputDescriptor input = DagTypeConverters.convertInputDescriptorFromDAGPlan(root.getIODescriptor());
        InputInitializerDescriptor initializer =
                DagTypeConverters.convertInputInitializerDescriptorFromDAGPlan(root.getControllerDescriptor());
        List<OutputSpec> outputs = new ArrayList<>();
        for (RootInputLeafOutputProto output : vertex.getOutputsList()) {
            OutputDescriptor descriptor = DagTypeConverters.convertOutputDescriptorFromDAGPlan(output.getIODescriptor());
            outputs.add(new OutputSpec(output.getName(), descriptor, 0));
        }
        Configuration vertexOnly = new Configuration(false);
        for (PlanKeyValuePair setting : vertex.getVertexConf().getConfKeyValuesList()) {
            vertexOnly.set(setting.getKey(), setting.getValue());
        }

        ApplicationId application = ApplicationId.newInstance(CLUSTER_TIMESTAMP, DAGS.incrementAndGet());
        TezVertexID vertexId = TezVertexID.getInstance(TezDAGID.getInstance(application, 1), 0);
        SplitGeneratorContext splitContext = new SplitGeneratorContext(application, dagName,
                TezUtils.createConfFromUserPayload(processor.getUserPayload()), root.getName(),
                input.getUserPayload(), initializer.getUserPayload(), vertexId.getId(), ranks, taskMemoryMb);
        if (!initializer.getClassName().equals(HiveSplitGenerator.class.getName())) {
            throw new HiveException("datampi's DAG mode takes splits from HiveSplitGenerator, not "
                    + initializer.getClassName());
        }
        List<Event> events = new HiveSplitGenerator(splitContext).initialize();
        List<DagVertex.VertexTask> tasks = new ArrayList<>();
        List<List<String>> hosts = List.of();
        for (Event event : events) {
            if (event instanceof InputConfigureVertexTasksEvent configure) {
                hosts = hostsOf(configure.getLocationHint(), configure.getNumTasks());
            } else if (event instanceof InputDataInformationEvent split) {
                if (split.getSerializedPath() != null) {
                    throw new HiveException("The splits of " + map.getName() + " were written to "
                            + split.getSerializedPath() + " (hive.tez.input.fs.serialization.threshold), which "
                            + "datampi's DAG mode does not read yet");
                }
                ByteBuffer payload = split.getUserPayload().duplicate();
                byte[] bytes = new byte[payload.remaining()];
                payload.get(bytes);
                tasks.add(new DagVertex.VertexTask(bytes, List.of()));
            }
        }
        List<DagVertex.VertexTask> located = new ArrayList<>(tasks.size());
        for (int task = 0; task < tasks.size(); task++) {
            located.add(new DagVertex.VertexTask(tasks.get(task).split(),
                    task < hosts.size() ? hosts.get(task) : List.of()));
        }
        TezTaskAttemptID first = TezTaskAttemptID.getInstance(TezTaskID.getInstance(vertexId, 0), 0);
        List<InputSpec> inputs = List.of(new InputSpec(root.getName(), input, 1));
        TaskSpec template = new TaskSpec(first, dagName, vertex.getName(), located.size(), processor,
                new ArrayList<>(inputs), outputs, null, vertexOnly);
        return new DagVertex(template, root.getName(), located);
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
