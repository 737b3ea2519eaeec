package org.datampi.hive.dag;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.tez.common.TezUtils;
import org.apache.tez.dag.api.DagTypeConverters;
import org.apache.tez.dag.api.ProcessorDescriptor;
import org.apache.tez.dag.api.records.DAGProtos.DAGPlan;
import org.apache.tez.dag.api.records.DAGProtos.VertexPlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The splits the client makes as it builds a DAG (of the root vertices that no dynamic partition pruning defers), side
 * by side, as Tez's application master runs its vertices' input initializers: the ranks wait for the DAG meanwhile,
 * so making splits is all the machine does (one after the other, TPC-DS q95 at scale 1 listed four unpruned scans of
 * some 1,800 partitions for 21 s where Tez took 15). At most one thread per core of Hive's JVM, each attached to the
 * caller's Hive session (its configuration, class loader with the session's added jars, and plan cache, as
 * HiveServer2 attaches its background threads; each has its own of Hive's plan cache: {@link HivePlanCache}).
 */
final class ClientSplits {
    private static final Logger LOG = LoggerFactory.getLogger(ClientSplits.class);
    private static final long STOP_SECONDS = 10;

    private ClientSplits() {
    }

    /**
     * By vertex name, the tasks of every vertex of PLAN whose request is not pruned, one per split (per group of one
     * bucket's splits for a bucket map join's big table: {@link BucketJoin}). A failure is
     * thrown as the first failed vertex's (in the plan's order), the other generators then interrupted.
     */
    static Map<String, VertexSplits.Made> make(ApplicationId application, String dagName, DAGPlan plan,
            Map<String, SplitRequest> requests) throws Exception {
        List<VertexPlan> vertices = plan.getVertexList().stream().filter(vertex -> requests.containsKey(
                vertex.getName()) && !requests.get(vertex.getName()).pruned()).toList();
        Map<String, VertexSplits.Made> tasks = new HashMap<>();
        if (vertices.size() <= 1) {
            // Nothing to run beside it: on the caller's thread, no pool.
            for (VertexPlan vertex : vertices) {
                tasks.put(vertex.getName(), make(application, dagName, plan, vertex, requests.get(vertex.getName())));
            }
            return tasks;
        }
        SessionState session = SessionState.get();
        ClassLoader classes = Thread.currentThread().getContextClassLoader();
        AtomicInteger threads = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(vertices.size(),
                Runtime.getRuntime().availableProcessors()), runnable -> {
                    Thread thread = new Thread(runnable, "dag-splits-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    thread.setContextClassLoader(classes);
                    return thread;
                });
        try {
            Map<String, Future<VertexSplits.Made>> making = new LinkedHashMap<>();
            for (VertexPlan vertex : vertices) {
                making.put(vertex.getName(), pool.submit(() -> {
                    if (session != null) {
                        SessionState.setCurrentSessionState(session);
                    }
                    try {
                        return make(application, dagName, plan, vertex, requests.get(vertex.getName()));
                    } finally {
                        if (session != null) {
                            SessionState.detachSession();
                        }
                    }
                }));
            }
            for (Map.Entry<String, Future<VertexSplits.Made>> vertex : making.entrySet()) {
                try {
                    tasks.put(vertex.getKey(), vertex.getValue().get());
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
            return tasks;
        } finally {
            // After a failure the others are interrupted; they are gone before the query goes on (their generators
            // clean up after themselves).
            pool.shutdownNow();
            if (!pool.awaitTermination(STOP_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("Split generators still running {} s after the DAG's splits were given up", STOP_SECONDS);
            }
        }
    }

    private static VertexSplits.Made make(ApplicationId application, String dagName, DAGPlan plan, VertexPlan vertex,
            SplitRequest request) throws Exception {
        ProcessorDescriptor processor =
                DagTypeConverters.convertProcessorDescriptorFromDAGPlan(vertex.getProcessorDescriptor());
        Configuration conf = TezUtils.createConfFromUserPayload(processor.getUserPayload());
        int vertexId = plan.getVertexList().indexOf(vertex);
        if (BucketJoin.joinsBuckets(vertex)) {
            return BucketJoin.group(plan, vertex, VertexSplits.generate(application, dagName, vertex.getName(),
                    vertexId, conf, request, Map.of(), List.of()), request.ranks(), request.taskMemoryMb());
        }
        return VertexSplits.make(application, dagName, vertex.getName(), vertexId, conf, request, Map.of(), List.of());
    }
}
