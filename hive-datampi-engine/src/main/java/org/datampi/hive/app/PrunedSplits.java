package org.datampi.hive.app;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.tez.runtime.api.events.InputInitializerEvent;
import org.datampi.hive.dag.DagJob;
import org.datampi.hive.dag.DagVertex;
import org.datampi.hive.dag.PruningFiles;
import org.datampi.hive.dag.VertexSplits;
import org.datampi.mpid.StageRuntime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rank 0's making of the splits of the vertices that dynamic partition pruning defers ({@link DagVertex#deferred}):
 * each vertex's start as soon as every rank has ended the vertices whose events prune it, in threads of their own,
 * several at once, and its stage is planned the moment they are made, so that the other ranks get its tasks at once;
 * meanwhile this rank runs tasks of other vertices. Tez's application master likewise runs each vertex's input
 * initializer in threads of its own as soon as its sources are done. (Made one after the other on this rank's main
 * thread, the splits of TPC-DS's pruned scans of some 1,100 partitions each took 2 to 5 s apiece at scale 1 while
 * every other rank waited. On two cores this measured no gain, split generation being CPU work with no core idle;
 * where listings wait on the file system, HDFS's, several at once overlap the waits: BENCHMARKS.md.)
 *
 * <p>Threading: a watcher thread starts each vertex's splits when it hears that its sources have ended (the
 * runtime's stage ends, waited for with the job's health polled); the main thread may start them too, on its way to
 * the vertex ({@link #await}), so that neither waits for the other. The split threads only make splits, save them and
 * plan their stage (the scheduler is synchronized). A failure to make a vertex's splits fails the job when the main
 * thread comes to the vertex, which it always does.
 */
final class PrunedSplits implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PrunedSplits.class);
    private static final int CLOSE_WAIT_SECONDS = 10;

    private final DagJob dag;
    private final Path dagFile;
    private final Configuration files;
    private final PruningFiles pruning;
    private final JobUser user;
    private final StageRuntime stages;
    private final ExecutorService threads;
    private final Thread watcher;
    private volatile boolean closed;
    /** By stage, the deferred vertices whose splits are being made or are made. */
    private final Map<Integer, Future<DagVertex>> making = new HashMap<>();

    /**
     * Starts watching for the vertices whose splits can be made.
     *
     * @param files the Hadoop configuration for the files beside DAG_FILE
     * @param threads how many vertices' splits are made at once (each split generator lists and groups its own
     *     partitions' files)
     */
    PrunedSplits(DagJob dag, Path dagFile, Configuration files, PruningFiles pruning, JobUser user,
            StageRuntime stages, int threads) {
        this.dag = requireNonNull(dag, "dag is null");
        this.dagFile = requireNonNull(dagFile, "dagFile is null");
        this.files = requireNonNull(files, "files is null");
        this.pruning = requireNonNull(pruning, "pruning is null");
        this.user = requireNonNull(user, "user is null");
        this.stages = requireNonNull(stages, "stages is null");
        // The job's class loader (the session's added jars, JobFiles) is the main thread's: the split generators
        // load the query's input formats and serdes from it.
        ClassLoader jobClasses = Thread.currentThread().getContextClassLoader();
        AtomicInteger made = new AtomicInteger();
        this.threads = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "pruned-splits-" + made.incrementAndGet());
            thread.setDaemon(true);
            thread.setContextClassLoader(jobClasses);
            return thread;
        });
        this.watcher = new Thread(this::watch, "pruned-splits-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** Starts each vertex's splits once its sources have ended everywhere, until every one is started. */
    private void watch() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                long seen = stages.stageEnds();
                if (startReady()) {
                    return;
                }
                stages.awaitStageEnds(seen);
            }
        } catch (RuntimeException e) {
            if (closed) {
                // The job ended: its rank stopped waiting.
                LOG.debug("Stopped watching for pruned vertices to make the splits of: {}", e.toString());
            } else {
                // The job failed (the main thread hears it from the runtime too), or the watcher did: the main
                // thread then starts each vertex's splits itself on its way to it (await).
                LOG.warn("Stopped watching for pruned vertices to make the splits of", e);
            }
        }
    }

    /**
     * Starts making the splits of every deferred vertex, not started yet, whose event sources every rank has ended
     * (their events are then all saved); whether every deferred vertex is started.
     */
    private synchronized boolean startReady() {
        boolean all = true;
        for (int stage = 0; stage < dag.vertices().size(); stage++) {
            DagVertex vertex = dag.vertices().get(stage);
            if (!vertex.deferred() || making.containsKey(stage)) {
                continue;
            }
            if (!vertex.eventSources().stream().allMatch(source -> stages.stageEnded(dag.stageOf(source)))) {
                all = false;
                continue;
            }
            Map<String, Integer> sourceTasks = new HashMap<>();
            for (String source : vertex.eventSources()) {
                // A source deferred itself ended everywhere, so its own splits were made before it ran.
                sourceTasks.put(source, tasksOf(dag.stageOf(source)));
            }
            int planned = stage;
            making.put(stage, threads.submit(() -> user.call(() -> make(planned, vertex, sourceTasks))));
        }
        return all;
    }

    /** Whether the splits of the deferred vertex of STAGE are made, and so its stage planned. */
    synchronized boolean isMade(int stage) {
        Future<DagVertex> made = making.get(stage);
        return made != null && made.isDone();
    }

    /**
     * The deferred vertex of STAGE with its tasks, once its splits are made (waiting for them), for the main thread
     * once its sources have ended everywhere; a failure to make them is thrown, as the job's.
     */
    DagVertex await(int stage) throws Exception {
        Future<DagVertex> made;
        synchronized (this) {
            startReady();
            made = making.get(stage);
        }
        if (made == null) {
            throw new IllegalStateException("The splits of " + dag.vertices().get(stage).name() + " cannot be made: "
                    + "the vertices whose events prune it have not ended on every rank");
        }
        try {
            return made.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /** The tasks of the vertex of STAGE: a deferred one's once made (it ended everywhere, so they are). */
    private int tasksOf(int stage) {
        Future<DagVertex> made = making.get(stage);
        if (made == null) {
            return dag.vertices().get(stage).tasks().size();
        }
        try {
            return made.get().tasks().size();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading the tasks of "
                    + dag.vertices().get(stage).name(), e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("The splits of " + dag.vertices().get(stage).name() + " failed",
                    e.getCause());
        }
    }

    /**
     * Makes the splits of a deferred vertex from the events its sources' tasks saved, saves the vertex with its tasks
     * for the other ranks and the split generator's counters (with the directories before pruning) for the stage's
     * summary, and plans its stage.
     */
    private DagVertex make(int stage, DagVertex vertex, Map<String, Integer> sourceTasks) throws Exception {
        List<InputInitializerEvent> events = new ArrayList<>();
        for (Map.Entry<String, Integer> source : sourceTasks.entrySet()) {
            events.addAll(pruning.readEvents(source.getKey(), source.getValue()));
        }
        long start = System.nanoTime();
        VertexSplits.Made splits = VertexSplits.make(vertex, sourceTasks, events);
        DagVertex withTasks = vertex.withTasks(splits.tasks());
        pruning.writeVertex(withTasks);
        TaskCounters saved = TaskCounters.of(splits.counters());
        saved.incrCounter(DagCounters.PRUNING, DagCounters.DIRECTORIES_BEFORE,
                vertex.deferredSplits().orElseThrow().inputDirectories());
        saved.save(files, dagFile.getParent(), DagCounters.splitsFile(vertex.name()));
        stages.planStage(stage, withTasks.tasks().stream().map(DagVertex.VertexTask::hosts).toList());
        LOG.info("Hive query {}: {} pruned by {} events of {}: {} tasks, splits made in {} ms", dag.queryId(),
                vertex.name(), events.size(), sourceTasks.keySet(), withTasks.tasks().size(),
                (System.nanoTime() - start) / 1_000_000);
        return withTasks;
    }

    /**
     * Stops the watcher and any split making still under way, and waits a while for them: a split generator left
     * running would read with this job's class loader and file systems after the job has closed them.
     */
    @Override
    public void close() throws InterruptedException {
        closed = true;
        watcher.interrupt();
        threads.shutdownNow();
        if (!threads.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
            LOG.warn("Split making of a pruned vertex still runs {} s after its job ended", CLOSE_WAIT_SECONDS);
        }
        watcher.join(TimeUnit.SECONDS.toMillis(CLOSE_WAIT_SECONDS));
    }
}
