package org.datampi.hive.dag;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.tez.HiveSplitGenerator;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.tez.common.TezUtils;
import org.apache.tez.common.counters.TezCounters;
import org.apache.tez.dag.api.DagTypeConverters;
import org.apache.tez.dag.api.InputDescriptor;
import org.apache.tez.dag.api.InputInitializerDescriptor;
import org.apache.tez.dag.api.VertexLocationHint;
import org.apache.tez.dag.api.event.VertexState;
import org.apache.tez.dag.api.event.VertexStateUpdate;
import org.apache.tez.dag.api.records.DAGProtos.RootInputLeafOutputProto;
import org.apache.tez.dag.records.TezVertexID;
import org.apache.tez.mapreduce.common.MRInputAMSplitGenerator;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.InputInitializer;
import org.apache.tez.runtime.api.events.InputConfigureVertexTasksEvent;
import org.apache.tez.runtime.api.events.InputDataInformationEvent;
import org.apache.tez.runtime.api.events.InputInitializerEvent;
import org.apache.tez.runtime.api.impl.TaskSpec;
import org.datampi.mpid.HostNames;

/**
 * A root vertex's splits, from Hive's split generator run as Tez's application master runs it: on the client when the
 * DAG is built, or on rank 0 while it runs for a vertex that dynamic partition pruning defers (its sources' events
 * are then handed to the generator with their SUCCEEDED updates before it starts, so that it never waits).
 */
public final class VertexSplits {
    /**
     * A vertex's splits as its tasks, and what the split generator counted (HiveInputCounters).
     *
     * @param tasks one per split (or, for a bucket map join's big table, per group of one bucket's splits), with its
     *     hosts
     * @param counters the generator's counters
     * @param bucketJoin for a bucket map join's big table, how its tasks join the buckets; else empty
     */
    public record Made(List<DagVertex.VertexTask> tasks, TezCounters counters, Optional<BucketJoin.Groups> bucketJoin) {
        public Made {
            tasks = List.copyOf(tasks);
            requireNonNull(counters, "counters is null");
            requireNonNull(bucketJoin, "bucketJoin is null");
        }

        public Made(List<DagVertex.VertexTask> tasks, TezCounters counters) {
            this(tasks, counters, Optional.empty());
        }
    }

    private VertexSplits() {
    }

    /**
     * The splits of a deferred vertex, now that its event sources have run.
     *
     * @param sourceTasks the tasks each event source ran
     * @param events the pruning events those tasks sent (to any vertex: those for this vertex's input are taken)
     */
    public static Made make(DagVertex vertex, Map<String, Integer> sourceTasks, List<InputInitializerEvent> events)
            throws Exception {
        SplitRequest request = vertex.deferredSplits().orElseThrow(() -> new IllegalStateException("Vertex "
                + vertex.name() + " has its splits already"));
        TaskSpec template = vertex.template();
        TezVertexID vertexId = template.getTaskAttemptID().getTaskID().getVertexID();
        return make(vertexId.getDAGID().getApplicationId(), template.getDAGName(), vertex.name(), vertexId.getId(),
                TezUtils.createConfFromUserPayload(template.getProcessorDescriptor().getUserPayload()), request,
                sourceTasks, events);
    }

    /**
     * The splits of vertex VERTEX_NAME's root input, for REQUEST, with the vertex's configuration (what Hive's processor
     * gets). Pruning events must be complete: one from each task of each source per pruned column.
     */
    static Made make(ApplicationId application, String dagName, String vertexName, int vertexId,
            Configuration vertexConf, SplitRequest request, Map<String, Integer> sourceTasks,
            List<InputInitializerEvent> events) throws Exception {
        Generated generated = generate(application, dagName, vertexName, vertexId, vertexConf, request, sourceTasks,
                events);
        List<byte[]> splits = new ArrayList<>();
        List<List<String>> hosts = List.of();
        for (Event event : generated.events()) {
            if (event instanceof InputConfigureVertexTasksEvent configure) {
                hosts = hostsOf(configure.getLocationHint(), configure.getNumTasks());
            } else if (event instanceof InputDataInformationEvent split) {
                if (split.getSerializedPath() != null) {
                    throw new HiveException("The splits of " + vertexName + " were written to "
                            + split.getSerializedPath() + " (hive.tez.input.fs.serialization.threshold), which "
                            + "datampi's DAG mode does not read yet");
                }
                if (split.getUserPayload() == null) {
                    throw new HiveException("The splits of " + vertexName + " came as objects, not "
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
        return new Made(tasks, generated.counters());
    }

    /**
     * What the root input's split generator gave, before its splits become tasks: its events, and its counters.
     *
     * @param input the root input as the generator saw it (its payload is Hive's)
     */
    record Generated(InputDescriptor input, List<Event> events, TezCounters counters) {
        Generated {
            requireNonNull(input, "input is null");
            events = List.copyOf(events);
            requireNonNull(counters, "counters is null");
        }
    }

    /** Runs the root input's split generator, as {@link #make} does, and gives its events as they come. */
    static Generated generate(ApplicationId application, String dagName, String vertexName, int vertexId,
            Configuration vertexConf, SplitRequest request, Map<String, Integer> sourceTasks,
            List<InputInitializerEvent> events) throws Exception {
        // Generators run side by side, on the client and on rank 0 (done already where the engine is installed).
        HivePlanCache.makePerThread();
        RootInputLeafOutputProto root = request.root();
        InputDescriptor input = DagTypeConverters.convertInputDescriptorFromDAGPlan(root.getIODescriptor());
        InputInitializerDescriptor initializer =
                DagTypeConverters.convertInputInitializerDescriptorFromDAGPlan(root.getControllerDescriptor());
        SplitGeneratorContext context = new SplitGeneratorContext(application, dagName, vertexConf, root.getName(),
                input.getUserPayload(), initializer.getUserPayload(), vertexId, request.ranks(),
                request.taskMemoryMb(), sourceTasks);
        // Hive's own generator for HiveInputFormat (it groups splits and prunes); Tez's plain one for any other input
        // format (DagUtils.createVertex), such as the one-row input of a query without a table, or the un-grouped
        // splits of a bucket map join's big table (BucketJoin groups them).
        InputInitializer generator;
        if (initializer.getClassName().equals(HiveSplitGenerator.class.getName())) {
            generator = new HiveSplitGenerator(context);
        } else if (initializer.getClassName().equals(MRInputAMSplitGenerator.class.getName())) {
            generator = new MRInputAMSplitGenerator(context);
        } else {
            throw new HiveException("datampi's DAG mode takes splits from HiveSplitGenerator or "
                    + "MRInputAMSplitGenerator, not " + initializer.getClassName() + " (" + vertexName + ")");
        }
        if (request.pruned()) {
            List<InputInitializerEvent> mine = pruningEvents(vertexName, root.getName(), request, sourceTasks, events);
            generator.handleInputInitializerEvent(mine);
            for (String source : request.eventsPerSourceTask().keySet()) {
                generator.onVertexStateUpdated(new VertexStateUpdate(source, VertexState.SUCCEEDED));
            }
        }
        return new Generated(input, generator.initialize(), context.counters());
    }

    /**
     * The events for the input, each named after its source; refused unless every task of every source sent its
     * events (Hive's pruner would otherwise wait for the missing ones for ever).
     */
    private static List<InputInitializerEvent> pruningEvents(String vertexName, String inputName,
            SplitRequest request, Map<String, Integer> sourceTasks, List<InputInitializerEvent> events)
            throws HiveException {
        List<InputInitializerEvent> mine = events.stream().filter(event -> vertexName.equals(
                event.getTargetVertexName()) && inputName.equals(event.getTargetInputName())).toList();
        for (Map.Entry<String, Integer> source : request.eventsPerSourceTask().entrySet()) {
            Integer tasks = sourceTasks.get(source.getKey());
            long sent = mine.stream().filter(event -> source.getKey().equals(event.getSourceVertexName())).count();
            if (tasks == null || sent != (long) tasks * source.getValue()) {
                throw new HiveException("Dynamic partition pruning of " + vertexName + " (" + inputName + ") expected "
                        + source.getValue() + " events from each of the " + tasks + " tasks of "
                        + source.getKey() + ", and got " + sent);
            }
        }
        return mine;
    }

    static List<List<String>> hostsOf(VertexLocationHint hint, int tasks) {
        List<List<String>> hosts = new ArrayList<>();
        if (hint == null || hint.getTaskLocationHints() == null) {
            return hosts;
        }
        hint.getTaskLocationHints().forEach(task -> hosts.add(task == null || task.getHosts() == null ? List.of()
                : HostNames.ofSplit(task.getHosts())));
        return hosts.size() == tasks ? hosts : List.of();
    }
}
