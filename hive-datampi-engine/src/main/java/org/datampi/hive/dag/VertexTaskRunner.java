package org.datampi.hive.dag;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.hadoop.conf.Configuration;
import org.apache.tez.common.TezExecutors;
import org.apache.tez.common.TezSharedExecutor;
import org.apache.tez.common.counters.TezCounters;
import org.apache.tez.dag.api.TezException;
import org.apache.tez.dag.records.TezTaskAttemptID;
import org.apache.tez.hadoop.shim.HadoopShim;
import org.apache.tez.hadoop.shim.HadoopShimsLoader;
import org.apache.tez.runtime.LogicalIOProcessorRuntimeTask;
import org.apache.tez.runtime.api.TaskFailureType;
import org.apache.tez.runtime.api.events.InputDataInformationEvent;
import org.apache.tez.runtime.api.events.InputInitializerEvent;
import org.apache.tez.runtime.api.impl.EventMetaData;
import org.apache.tez.runtime.api.impl.EventMetaData.EventProducerConsumerType;
import org.apache.tez.runtime.api.impl.ExecutionContextImpl;
import org.apache.tez.runtime.api.impl.TaskSpec;
import org.apache.tez.runtime.api.impl.TezEvent;
import org.apache.tez.runtime.api.impl.TezUmbilical;
import org.apache.tez.runtime.common.objectregistry.ObjectRegistryImpl;

import com.google.common.collect.HashMultimap;
import com.google.common.collect.Multimap;

/**
 * Runs a vertex's tasks in a rank with Tez's own task runtime (LogicalIOProcessorRuntimeTask), as a Tez container
 * does (TezChild, TezTaskRunner2), without an application master: the task's split is handed to its root input as
 * the master would route it, and Hive's processors (MapTezProcessor, ReduceTezProcessor) run unchanged. One per job
 * on a rank (the DAG program makes it at set-up): like a container, it keeps one object registry (Hive caches plans
 * and hash tables in it), cleared when the vertex changes. A map task finds there Hive's plan with only the partitions
 * its split reads ({@link SplitMapPlan}).
 *
 * <p>Not thread-safe: a rank runs one task at a time.
 */
public final class VertexTaskRunner {
    private final ObjectRegistryImpl registry = new ObjectRegistryImpl();
    /**
     * Hadoop's defaults, parsed once for the job's tasks as a Tez container parses them once (TezChild's
     * defaultConf): a fresh Configuration parses Hadoop's XML files on its first read, some 3 ms of CPU per task, a
     * quarter of the ranks' CPU in TPC-DS q17's 1,009-task reducer.
     */
    private final Configuration defaults = new Configuration();
    private final String host;
    private String lastDag;
    private String lastVertex;
    private Multimap<String, String> startedInputs = HashMultimap.create();
    private HadoopShim shim;
    /**
     * By vertex of the DAG, the plan for Hive's map processor cut to each task's split (empty for a vertex it does
     * not cut): read once per DAG, before any task of the vertex on this rank, so never from a plan an earlier task
     * left cut in Hive's per-thread plan cache.
     */
    private final Map<String, Optional<SplitMapPlan>> mapPlans = new HashMap<>();

    /**
     * What a task leaves behind.
     *
     * @param counters its counters
     * @param pruningEvents the dynamic partition pruning events it sent (Hive's AppMasterEventOperator), each named
     *     after its source vertex, for the split generators of the vertices they prune
     */
    public record TaskResult(TezCounters counters, List<InputInitializerEvent> pruningEvents) {
        public TaskResult {
            requireNonNull(counters, "counters is null");
            pruningEvents = List.copyOf(pruningEvents);
        }
    }

    /**
     * Whether the job reads ORC through the rank's LLAP I/O cache ({@link RankIoCache}; its plan says so to Hive's
     * input format): its tasks' LLAP counters are then registered.
     */
    private final boolean ioCache;

    public VertexTaskRunner(String host, boolean ioCache) {
        this.host = requireNonNull(host, "host is null");
        this.ioCache = ioCache;
    }

    /**
     * Runs task TASK of VERTEX with LOCAL_DIR for its files; returns its counters and events, or throws its failure.
     * A task of a root vertex first gets its split; a task fed by edges reads them through its inputs, which find the
     * DAG's EDGES in the object registry.
     */
    public TaskResult run(DagVertex vertex, int task, String localDir, DagEdges edges) throws Exception {
        TaskSpec spec = vertex.taskSpec(task);
        TezTaskAttemptID attempt = spec.getTaskAttemptID();
        String dag = attempt.getTaskID().getVertexID().getDAGID().toString();
        if (!dag.equals(lastDag)) {
            registry.clearCache(ObjectRegistryImpl.ObjectLifeCycle.VERTEX);
            registry.clearCache(ObjectRegistryImpl.ObjectLifeCycle.DAG);
            startedInputs = HashMultimap.create();
            mapPlans.clear();
        } else if (!spec.getVertexName().equals(lastVertex)) {
            registry.clearCache(ObjectRegistryImpl.ObjectLifeCycle.VERTEX);
        }
        lastDag = dag;
        lastVertex = spec.getVertexName();
        registry.cacheForDAG(DagEdges.REGISTRY_KEY, edges);
        Optional<SplitMapPlan> mapPlan = mapPlans.get(spec.getVertexName());
        if (mapPlan == null) {
            mapPlan = SplitMapPlan.of(vertex);
            mapPlans.put(spec.getVertexName(), mapPlan);
        }
        mapPlan.ifPresent(plan -> plan.install(registry, task, vertex.tasks().get(task)));

        // As TezTaskRunner2: the task's configuration is the process's defaults and the vertex's own settings, its
        // classes from this thread's loader (the job's added jars: JobFiles), not the one the defaults were made in.
        Configuration taskConf = new Configuration(defaults);
        taskConf.setClassLoader(Thread.currentThread().getContextClassLoader());
        if (spec.getTaskConf() != null) {
            spec.getTaskConf().forEach(setting -> taskConf.set(setting.getKey(), setting.getValue()));
        }
        Umbilical umbilical = new Umbilical(spec.getVertexName());
        TezExecutors executor = new TezSharedExecutor(taskConf);
        LogicalIOProcessorRuntimeTask runtime = new LogicalIOProcessorRuntimeTask(spec, 0, taskConf,
                new String[] {localDir}, umbilical, new HashMap<String, ByteBuffer>(), new HashMap<>(System.getenv()),
                startedInputs, registry, String.valueOf(ProcessHandle.current().pid()),
                new ExecutionContextImpl(host), RankIoCache.heapLeft(), false, shim(taskConf), executor);
        String ioCounters = ioCache ? RankIoCache.register(attempt, runtime) : null;
        try {
            runtime.initialize();
            if (!vertex.rootInput().isEmpty()) {
                runtime.handleEvents(List.of(splitEvent(vertex, task, spec)));
            }
            runtime.run();
            runtime.close();
        } finally {
            // Each step whatever the one before did: a failing cleanup must neither hide the task's own failure
            // nor leave the executor's threads in a warm rank.
            try {
                runtime.setFrameworkCounters();
            } finally {
                try {
                    runtime.cleanup();
                } finally {
                    executor.shutdownNow();
                    if (ioCounters != null) {
                        RankIoCache.unregister(ioCounters);
                    }
                }
            }
        }
        umbilical.throwIfFailed();
        return new TaskResult(runtime.getCounters(), umbilical.pruningEvents);
    }

    /** The Hadoop shim of this process's Hadoop, found once for the job's tasks, as a Tez container finds it once. */
    private HadoopShim shim(Configuration conf) {
        if (shim == null) {
            shim = new HadoopShimsLoader(conf).getHadoopShim();
        }
        return shim;
    }

    /** The task's split, routed to its root input as Tez's master routes a root input's data information event. */
    private static TezEvent splitEvent(DagVertex vertex, int task, TaskSpec spec) {
        InputDataInformationEvent split = InputDataInformationEvent.createWithSerializedPayload(task,
                ByteBuffer.wrap(vertex.tasks().get(task).split()));
        split.setTargetIndex(task);
        TezEvent event = new TezEvent(split, new EventMetaData(EventProducerConsumerType.INPUT, spec.getVertexName(),
                vertex.rootInput(), null));
        event.setDestinationInfo(new EventMetaData(EventProducerConsumerType.INPUT, spec.getVertexName(),
                vertex.rootInput(), spec.getTaskAttemptID()));
        return event;
    }

    /**
     * The task's line to "the master": of the events a task sends it keeps dynamic partition pruning's (the only
     * ones anyone waits for: edges need none), named after their source as Tez's master names them; a task commits
     * through Hive's own job close, and what it signals of a failure is rethrown when it ends.
     */
    private static final class Umbilical implements TezUmbilical {
        private final String vertex;
        private final List<InputInitializerEvent> pruningEvents = new CopyOnWriteArrayList<>();
        private volatile Throwable failure;
        private volatile String failureMessage;

        Umbilical(String vertex) {
            this.vertex = vertex;
        }

        @Override
        public void addEvents(Collection<TezEvent> events) {
            for (TezEvent event : events) {
                if (event.getEvent() instanceof InputInitializerEvent pruning) {
                    pruning.setSourceVertexName(vertex);
                    pruningEvents.add(pruning);
                }
            }
        }

        @Override
        public void signalFailure(TezTaskAttemptID attempt, TaskFailureType type, Throwable cause, String message,
                EventMetaData source) {
            failure = cause;
            failureMessage = attempt + " failed (" + type + "): " + message;
        }

        @Override
        public void signalKillSelf(TezTaskAttemptID attempt, Throwable cause, String message, EventMetaData source) {
            failure = cause;
            failureMessage = attempt + " killed itself: " + message;
        }

        @Override
        public boolean canCommit(TezTaskAttemptID attempt) throws IOException {
            return true;
        }

        void throwIfFailed() throws TezException {
            if (failureMessage != null) {
                throw new TezException(failureMessage, failure);
            }
        }
    }
}
