package org.datampi.hive.app;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.tez.common.TezUtils;
import org.apache.tez.common.counters.TezCounters;
import org.datampi.hive.dag.DagEdge;
import org.datampi.hive.dag.DagEdges;
import org.datampi.hive.dag.DagJob;
import org.datampi.hive.dag.DagVertex;
import org.datampi.hive.dag.HivePlanCache;
import org.datampi.hive.dag.PruningFiles;
import org.datampi.hive.dag.RankIoCache;
import org.datampi.hive.dag.VertexTaskRunner;
import org.datampi.mpid.HostNames;
import org.datampi.mpid.JobSetup;
import org.datampi.mpid.StageRuntime;
import org.datampi.mpid.StagedProgram;
import org.datampi.mpid.StageTaskException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every rank runs for a DAG (hive.datampi.plan=dag, {@link DagJob}), as a staged program: vertex i is stage i.
 * A vertex starts on a rank once every rank has finished the vertices it reads (their data has then all arrived) and
 * those whose events prune its input; each rank runs a task of the first vertex in the DAG's order that is ready, so
 * independent vertices run side by side ({@link #runStages}); its tasks run with Tez's task runtime and Hive's
 * processors ({@link VertexTaskRunner}): a vertex that reads splits has its tasks handed out by rank 0 (placed on a
 * host that holds the split's data), the others run task t on rank t mod size, where the shuffle delivered its
 * partitions. The edges are streams of datampi's shuffle ({@link DagEdges}): data moves while the producing vertex
 * runs and stays in the receiving rank (in memory up to the shuffle's budget, spilled beyond it) until the consuming
 * vertex has run there. Before the first task, rank 0 reads the DAG the client wrote and broadcasts it to every rank.
 * A task's counters go next to the DAG file, where the client adds them up, with whether a task that read a split
 * ran on a host that holds its data.
 *
 * <p>Arguments: {@code DAG_FILE JOB_ID}.
 */
public final class DataMPIDagApplication implements StagedProgram {
    private static final Logger LOG = LoggerFactory.getLogger(DataMPIDagApplication.class);
    /** The DAG this program runs, read by {@link #setUpJob}. Set up, stages and close: the rank's main thread. */
    private Job job;
    /** As one per Tez container: Hive's objects cached for a vertex stay for its next task on this rank. */
    private VertexTaskRunner runner;

    /** Made by the ranks' runtime for each job. */
    public DataMPIDagApplication() {
    }

    /**
     * @param user whom the job's tasks run as ({@link JobUser}: file systems made from the DAG's configuration)
     * @param pruning the files of dynamic partition pruning, beside the DAG file
     * @param files the rank's Hadoop configuration for the files beside the DAG file (counters, pruning), loaded
     *     once: a fresh {@code Configuration} parses Hadoop's default XML files on its first read, some 3 ms of CPU,
     *     which every task paid (TPC-DS q17's 1,009-task reducer: a quarter of the ranks' CPU)
     */
    private record Job(String id, Path dagFile, DagJob dag, JobUser user, PruningFiles pruning, Configuration files) {
    }

    @Override
    public void setUpJob(String[] args, JobSetup setup) throws IOException {
        // Before this rank's first task: rank 0 makes pruned scans' splits while its main thread runs tasks.
        HivePlanCache.makePerThread();
        Path dagFile = new Path(args[0]);
        Configuration files = new Configuration();
        byte[] bytes;
        DagJob dag;
        if (setup.rank() == 0) {
            try (InputStream in = dagFile.getFileSystem(files).open(dagFile)) {
                bytes = in.readAllBytes();
            }
            dag = DagJob.read(new ByteArrayInputStream(bytes));
            // Planned before the broadcast: no rank can ask for a task before its end.
            plan(dag, setup);
            setup.broadcast(new ByteArrayInputStream(bytes), OutputStream.nullOutputStream());
            LOG.info("Job {}: {}, vertices {}, edges {}, {} bytes broadcast", args[1],
                    dag.vertices().get(0).template().getDAGName(), dag.vertices().stream().map(v -> v.name() + " ("
                            + v.tasks().size() + " tasks)").toList(),
                    dag.edges().stream().map(e -> e.source() + " -> " + e.destination() + " " + e.routing()).toList(),
                    bytes.length);
        } else {
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            setup.broadcast(null, received);
            dag = DagJob.read(new ByteArrayInputStream(received.toByteArray()));
        }
        // Hive's Tez compiler gives every vertex's processor the query's whole configuration, as it gives Tez's.
        Configuration query = TezUtils.createConfFromUserPayload(
                dag.vertices().get(0).template().getProcessorDescriptor().getUserPayload());
        job = new Job(args[1], dagFile, dag, JobUser.start(query), new PruningFiles(files, dagFile.getParent()),
                files);
        runner = new VertexTaskRunner(setup.host(), RankIoCache.startIfAsked(query));
        // The session's added jars, localized once per job as a MapReduce-shaped stage's are, in a class loader of the
        // job's own (a previous job's jars never reach it); the tasks' configurations take it from this thread.
        JobConf jars = new JobConf(false);
        jars.setStrings(MRJobConfig.CLASSPATH_FILES, dag.classPath().toArray(String[]::new));
        JobFiles.localize(jars, setup).useClassPath(jars);
    }

    /**
     * Rank 0's plan of the stages: one per vertex, the tasks of those that read splits handed out by their hosts;
     * a vertex whose splits dynamic partition pruning defers is planned when they are made.
     */
    private static void plan(DagJob dag, JobSetup setup) {
        for (int stage = 0; stage < dag.vertices().size(); stage++) {
            DagVertex vertex = dag.vertices().get(stage);
            if (vertex.deferred()) {
                setup.deferStage(stage);
                continue;
            }
            setup.planStage(stage, vertex.tasks().size(), vertex.handedOut());
            if (vertex.handedOut()) {
                for (int task = 0; task < vertex.tasks().size(); task++) {
                    setup.preferHosts(stage, task, vertex.tasks().get(task).hosts());
                }
            }
        }
    }

    @Override
    public void runStages(String[] args, StageRuntime stages) throws Exception {
        Job job = this.job;
        if (job == null || !job.id().equals(args[1])) {
            throw TaskFailures.notSetUp(args[1]);
        }
        job.user().call(() -> {
            runStages(job, stages);
            return null;
        });
    }

    /** The job has ended on this rank: the file systems its tasks opened close. */
    @Override
    public void close() throws IOException {
        if (job != null) {
            job.user().close();
        }
    }

    /**
     * This rank's part of the DAG, one task at a time: of the first stage, in the DAG's order, that is ready here
     * (every rank has ended the stages it reads and those whose events prune it) and in which this rank has a task
     * left; looked for again after every task. So a rank with nothing left in one vertex runs another that is ready
     * (vertices side by side: the independent scans of a star join, a vertex with fewer tasks than ranks), and one that
     * becomes ready earlier in the order is taken up after the task at hand. No rank waits while a stage is ready for
     * it, and the first stage not ended everywhere is always ready, so no rank waits for ever. Without
     * {@link DagJob#concurrentVertices} a rank runs the stages strictly in order.
     */
    private void runStages(Job job, StageRuntime stages) throws Exception {
        DagJob dag = job.dag();
        // Rank 0 makes the splits of the vertices that pruning defers, in threads of their own (PrunedSplits).
        // At most four at once: each split generator holds its partitions' metadata on rank 0's task-sized heap.
        PrunedSplits pruned = stages.rank() == 0 && dag.vertices().stream().anyMatch(DagVertex::deferred)
                ? new PrunedSplits(dag, job.dagFile(), job.files(), job.pruning(), job.user(), stages,
                        Math.min(4, Runtime.getRuntime().availableProcessors()))
                : null;
        try {
            runStages(job, stages, pruned);
        } finally {
            if (pruned != null) {
                pruned.close();
            }
        }
    }

    private void runStages(Job job, StageRuntime stages, PrunedSplits pruned) throws Exception {
        DagJob dag = job.dag();
        DagEdges edges = new DagEdges(dag, stages, HiveShuffle.PAIR_TYPES);
        int count = dag.vertices().size();
        // Per stage: the vertex as this rank runs it (a deferred one once its splits are made), and for a vertex whose
        // tasks are placed the next of this rank's (task t runs on rank t mod size, where its partitions arrive).
        List<DagVertex> vertices = new ArrayList<>(dag.vertices());
        int[] nextPlaced = new int[count];
        Arrays.fill(nextPlaced, stages.rank());
        boolean[] ended = new boolean[count];
        // On rank 0, a ready vertex whose splits are still being made is taken up only when no other is ready.
        IntPredicate awaitsSplits = stage -> pruned != null && vertices.get(stage).deferred() && !pruned.isMade(stage);
        int left = count;
        while (left > 0) {
            long endsSeen = stages.stageEnds();
            int stage = nextStage(dag, ended, stages::stageEnded, awaitsSplits);
            if (stage < 0) {
                stages.awaitStageEnds(endsSeen);
                continue;
            }
            DagVertex vertex = vertices.get(stage);
            if (vertex.deferred() && pruned != null) {
                // Planned by the thread that made the splits.
                vertex = pruned.await(stage);
                vertices.set(stage, vertex);
            }
            int task;
            if (vertex.handedOut()) {
                task = stages.nextTask(stage);
                if (task >= 0 && vertex.deferred()) {
                    // Rank 0 planned the stage once it had saved the vertex with its tasks.
                    String name = vertex.name();
                    vertex = job.pruning().readVertex(name).orElseThrow(() -> new IllegalStateException(
                            "Rank 0 planned the tasks of " + name + " without saving them beside " + job.dagFile()));
                    vertices.set(stage, vertex);
                }
            } else {
                task = nextPlaced[stage] < vertex.tasks().size() ? nextPlaced[stage] : -1;
                nextPlaced[stage] += stages.size();
            }
            if (task < 0) {
                stages.endStage(stage);
                edges.releaseInputsOf(vertex.name());
                ended[stage] = true;
                left--;
                continue;
            }
            run(job, vertex, task, stages, edges);
            if (!vertex.handedOut()) {
                edges.releaseTaskInputs(vertex.name(), task);
            }
            stages.taskDone(stage);
        }
        // Every rank through every stage: nothing is still on its way to this rank when its shuffle stops.
        for (int stage = 0; stage < count; stage++) {
            stages.awaitStage(stage);
        }
        TaskCounters rank = new TaskCounters(null);
        rank.incrCounter(StageCounters.GROUP, DagCounters.SPILLED_BYTES, stages.spilledBytes());
        rank.save(job.files(), job.dagFile().getParent(), DagCounters.rankFile(stages.rank()));
    }

    /**
     * The first stage this rank has not ended whose inputs and pruning sources every rank has ended, or -1; one that
     * AWAITS_SPLITS (rank 0 is still making them) only when no other is ready. Without concurrent vertices only the
     * first stage this rank has not ended, once it is ready.
     */
    static int nextStage(DagJob dag, boolean[] ended, IntPredicate endedEverywhere, IntPredicate awaitsSplits) {
        int awaiting = -1;
        for (int stage = 0; stage < ended.length; stage++) {
            if (ended[stage]) {
                continue;
            }
            DagVertex vertex = dag.vertices().get(stage);
            boolean ready = dag.inputsOf(vertex.name()).stream()
                    .allMatch(input -> endedEverywhere.test(dag.stageOf(input.source())))
                    && vertex.eventSources().stream().allMatch(source -> endedEverywhere.test(dag.stageOf(source)));
            if (!dag.concurrentVertices()) {
                return ready ? stage : -1;
            }
            if (ready && !awaitsSplits.test(stage)) {
                return stage;
            }
            if (ready && awaiting < 0) {
                awaiting = stage;
            }
        }
        return awaiting;
    }

    private void run(Job job, DagVertex vertex, int task, StageRuntime stages, DagEdges edges)
            throws StageTaskException {
        String name = vertex.name();
        String where = "vertex " + name + ", task " + task;
        LOG.info("Hive query {} ({}): {} of {}", job.dag().queryId(), vertex.template().getDAGName(), where,
                vertex.tasks().size());
        long start = System.nanoTime();
        long started = System.currentTimeMillis();
        TaskUsage usage = TaskUsage.start();
        try {
            VertexTaskRunner.TaskResult result = runner.run(vertex, task, stages.localDir().resolve(
                    DagCounters.taskFile(name, task)).toString(), edges);
            job.pruning().writeEvents(name, task, result.pruningEvents());
            save(result.counters(), job, vertex, task, stages, started, usage);
        } catch (Throwable e) {
            // Errors too (a UDF's class that fails to load): the failure line names the vertex and the task, and
            // what its split reads (a corrupt file), as an O task's failure does.
            String files = vertex.tasks().get(task).files();
            throw new StageTaskException(where, e instanceof Error || files.isEmpty() ? e
                    : TaskFailures.onInputSplit(files, e));
        }
        LOG.info("{} finished in {} ms", where, (System.nanoTime() - start) / 1_000_000);
    }

    /**
     * The task's counters, beside the DAG file, in the form the job runner adds up for every stage, with whether a
     * task that read a split ran where its data is (as an O task counts itself): on a host that holds its blocks, or
     * on the rank whose cache holds it (RankAffinity); when it ran and what its rank's process used meanwhile
     * (TaskUsage).
     */
    private static void save(TezCounters counters, Job job, DagVertex vertex, int task, StageRuntime stages,
            long started, TaskUsage usage) throws IOException {
        TaskCounters saved = TaskCounters.of(counters);
        List<String> hosts = vertex.tasks().get(task).hosts();
        if (vertex.handedOut() && !hosts.isEmpty()) {
            boolean local = hosts.contains(stages.host()) || hosts.contains(HostNames.ofRank(stages.rank()));
            saved.incrCounter(local ? JobCounter.DATA_LOCAL_MAPS : JobCounter.OTHER_LOCAL_MAPS, 1);
        }
        usage.addTo(saved);
        saved.incrCounter(TaskCounters.TIMES, TaskCounters.STARTED, started);
        saved.incrCounter(TaskCounters.TIMES, TaskCounters.ENDED, System.currentTimeMillis());
        saved.save(job.files(), job.dagFile().getParent(), DagCounters.taskFile(vertex.name(), task));
    }
}
