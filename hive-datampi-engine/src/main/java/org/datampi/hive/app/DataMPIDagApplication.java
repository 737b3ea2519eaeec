package org.datampi.hive.app;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.io.DefaultHivePartitioner;
import org.apache.hadoop.mapred.JobConf;
import org.apache.tez.common.TezUtils;
import org.apache.tez.runtime.api.impl.OutputSpec;
import org.apache.tez.common.counters.CounterGroup;
import org.apache.tez.common.counters.TezCounter;
import org.apache.tez.common.counters.TezCounters;
import org.datampi.hive.dag.DagJob;
import org.datampi.hive.dag.DagVertex;
import org.datampi.hive.dag.VertexTaskRunner;
import org.datampi.mpid.JobSetup;
import org.datampi.mpid.MPI_D;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every rank runs for a DAG (hive.datampi.plan=dag, {@link DagJob}): each O task is one task of its root vertex
 * and each A task one task of the vertex behind its scatter-gather edge, run by Tez's task runtime with Hive's
 * processors ({@link VertexTaskRunner}); the edge is datampi's shuffle ({@link MpiShuffleOutput} to
 * {@link MpiShuffleInput}), partitioned by the edge's own partitioner and sorted by HiveKey bytes as Tez's is. Before
 * the first task, rank 0 reads the DAG the client wrote and broadcasts it to every rank, and places each O task on a
 * rank on a host that holds its split's data. A task's counters go next to the DAG file, where the client adds them
 * up.
 *
 * <p>Arguments: {@code DAG_FILE JOB_ID}.
 */
public final class DataMPIDagApplication {
    private static final Logger LOG = LoggerFactory.getLogger(DataMPIDagApplication.class);
    /** The vertex this process's tasks run, set up once per job (a serving process runs one job at a time). */
    private static Job current;
    /** One per rank process, as one per Tez container: Hive's objects cached for a vertex stay for its next task. */
    private static VertexTaskRunner runner;

    /** Hadoop's key for the partitioner class, which Tez's MRPartitioner and Hive's edges use. */
    private static final String PARTITIONER_CLASS = "mapred.partitioner.class";

    private DataMPIDagApplication() {
    }

    private record Job(String id, Path dagFile, DagJob dag, java.nio.file.Path localDir) {
    }

    public static synchronized void setUpJob(String[] args, JobSetup setup) throws IOException {
        Path dagFile = new Path(args[0]);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        if (setup.rank() == 0) {
            try (InputStream in = dagFile.getFileSystem(new Configuration()).open(dagFile)) {
                setup.broadcast(in, bytes);
            }
        } else {
            setup.broadcast(null, bytes);
        }
        DagJob dag = DagJob.read(new ByteArrayInputStream(bytes.toByteArray()));
        current = new Job(args[1], dagFile, dag, setup.localDir());
        HivePartitioner.useJob(partitionerConf(dag));
        DagVertex vertex = dag.oVertex();
        if (runner == null) {
            runner = new VertexTaskRunner(setup.host());
        }
        // A previous Hive job may have left its class loader (ADD JAR) on this thread: the vertex gets the process's.
        Thread.currentThread().setContextClassLoader(DataMPIDagApplication.class.getClassLoader());
        if (setup.rank() == 0) {
            for (int task = 0; task < vertex.tasks().size(); task++) {
                setup.preferHosts(task, vertex.tasks().get(task).hosts());
            }
            LOG.info("Job {}: {}, vertices {}, {} bytes broadcast", args[1], vertex.template().getDAGName(),
                    dag.vertices().stream().map(v -> v.template().getVertexName() + " (" + v.tasks().size()
                            + " tasks)").toList(), bytes.size());
        }
    }

    public static void main(String[] args) throws Exception {
        Job job = currentJob(args[1]);
        MPI_D.Init(args, MPI_D.Mode.Common, HiveShuffle.MPI_D_CONF);
        if (MPI_D.COMM_BIPARTITE_O != null) {
            run(job, job.dag().oVertex(), MPI_D.Comm_rank(MPI_D.COMM_BIPARTITE_O));
        } else if (MPI_D.COMM_BIPARTITE_A != null) {
            run(job, job.dag().aVertex().orElseThrow(() -> new IllegalStateException(
                    "An A task of job " + job.id() + ", whose DAG has no vertex behind a shuffle")),
                    MPI_D.Comm_rank(MPI_D.COMM_BIPARTITE_A));
        }
        MPI_D.Finalize();
    }

    private static void run(Job job, DagVertex vertex, int task) throws Exception {
        if (task >= vertex.tasks().size()) {
            // A root vertex without splits still has an O task (a job needs one), which has nothing to read.
            LOG.info("Job {}: no task {} in vertex {}", job.id(), task, vertex.template().getVertexName());
            return;
        }
        String name = vertex.template().getVertexName();
        LOG.info("Hive query {}: vertex {}, task {} of {}", vertex.template().getDAGName(), name, task,
                vertex.tasks().size());
        TezCounters counters = runner.run(vertex, task,
                job.localDir().resolve(name.replace(' ', '-') + "-" + task).toString());
        save(counters, job, name.replace(' ', '-') + "-" + task);
    }

    private static synchronized Job currentJob(String id) {
        if (current == null || !current.id().equals(id)) {
            throw new IllegalStateException("Job " + id + " was not set up on this rank (setUpJob runs first)");
        }
        return current;
    }

    /**
     * The partitioner of the DAG's scatter-gather edge (Hive's, hive.partitioner's class, named in the edge's
     * payload): MPI_D partitions the O tasks' pairs with it, as Tez's MRPartitioner would.
     */
    private static JobConf partitionerConf(DagJob dag) throws IOException {
        JobConf conf = new JobConf(false);
        conf.set(PARTITIONER_CLASS, DefaultHivePartitioner.class.getName());
        for (OutputSpec output : dag.oVertex().template().getOutputs()) {
            if (output.getOutputDescriptor().getClassName().equals(DagJob.SHUFFLE_OUTPUT)) {
                Configuration edge = TezUtils.createConfFromUserPayload(output.getOutputDescriptor().getUserPayload());
                conf.set(PARTITIONER_CLASS, edge.get(PARTITIONER_CLASS, DefaultHivePartitioner.class.getName()));
            }
        }
        return conf;
    }

    /** The task's counters, beside the DAG file, in the form the job runner adds up for every stage. */
    private static void save(TezCounters counters, Job job, String task) throws IOException {
        TaskCounters saved = new TaskCounters(null);
        for (CounterGroup group : counters) {
            for (TezCounter counter : group) {
                saved.incrCounter(group.getName(), counter.getName(), counter.getValue());
            }
        }
        saved.save(new Configuration(), job.dagFile().getParent(), task);
    }
}
