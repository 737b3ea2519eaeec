package org.datampi.hive.app;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.tez.common.counters.CounterGroup;
import org.apache.tez.common.counters.TezCounter;
import org.apache.tez.common.counters.TezCounters;
import org.datampi.hive.dag.DagVertex;
import org.datampi.hive.dag.VertexTaskRunner;
import org.datampi.mpid.JobSetup;
import org.datampi.mpid.MPI_D;
import org.datampi.mpid.MpidConf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every rank runs for a root vertex of a DAG (hive.datampi.plan=dag): each O task is one task of the vertex,
 * run by Tez's task runtime with Hive's processor ({@link VertexTaskRunner}). Before the first task, rank 0 reads the
 * vertex the client wrote ({@link DagVertex}) and broadcasts it to every rank, and places each task on a rank on a
 * host that holds its split's data. A task's counters go next to the vertex file, where the client adds them up.
 *
 * <p>Arguments: {@code VERTEX_FILE JOB_ID}.
 */
public final class DataMPIDagApplication {
    private static final Logger LOG = LoggerFactory.getLogger(DataMPIDagApplication.class);
    /** The vertex this process's tasks run, set up once per job (a serving process runs one job at a time). */
    private static Job current;
    /** One per rank process, as one per Tez container: Hive's objects cached for a vertex stay for its next task. */
    private static VertexTaskRunner runner;

    private DataMPIDagApplication() {
    }

    private record Job(String id, Path vertexFile, DagVertex vertex, java.nio.file.Path localDir) {
    }

    public static synchronized void setUpJob(String[] args, JobSetup setup) throws IOException {
        Path vertexFile = new Path(args[0]);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        if (setup.rank() == 0) {
            try (InputStream in = vertexFile.getFileSystem(new Configuration()).open(vertexFile)) {
                setup.broadcast(in, bytes);
            }
        } else {
            setup.broadcast(null, bytes);
        }
        DagVertex vertex = DagVertex.read(new ByteArrayInputStream(bytes.toByteArray()));
        current = new Job(args[1], vertexFile, vertex, setup.localDir());
        if (runner == null) {
            runner = new VertexTaskRunner(setup.host());
        }
        // A previous Hive job may have left its class loader (ADD JAR) on this thread: the vertex gets the process's.
        Thread.currentThread().setContextClassLoader(DataMPIDagApplication.class.getClassLoader());
        if (setup.rank() == 0) {
            for (int task = 0; task < vertex.tasks().size(); task++) {
                setup.preferHosts(task, vertex.tasks().get(task).hosts());
            }
            LOG.info("Job {}: vertex {} of {}, {} tasks, {} bytes broadcast", args[1],
                    vertex.template().getVertexName(), vertex.template().getDAGName(), vertex.tasks().size(),
                    bytes.size());
        }
    }

    public static void main(String[] args) throws Exception {
        Job job = currentJob(args[1]);
        MPI_D.Init(args, MPI_D.Mode.Common, Map.of(MpidConf.KEY_CLASS, BytesWritable.class.getName(),
                MpidConf.VALUE_CLASS, BytesWritable.class.getName()));
        if (MPI_D.COMM_BIPARTITE_O != null) {
            int task = MPI_D.Comm_rank(MPI_D.COMM_BIPARTITE_O);
            if (task < job.vertex().tasks().size()) {
                LOG.info("Hive query {}: vertex {}, task {} of {}", job.vertex().template().getDAGName(),
                        job.vertex().template().getVertexName(), task, job.vertex().tasks().size());
                TezCounters counters = runner.run(job.vertex(), task,
                        job.localDir().resolve("task-" + task).toString());
                save(counters, job, task);
            }
        }
        MPI_D.Finalize();
    }

    private static synchronized Job currentJob(String id) {
        if (current == null || !current.id().equals(id)) {
            throw new IllegalStateException("Job " + id + " was not set up on this rank (setUpJob runs first)");
        }
        return current;
    }

    /** The task's counters, beside the vertex file, in the form the job runner adds up for every stage. */
    private static void save(TezCounters counters, Job job, int task) throws IOException {
        TaskCounters saved = new TaskCounters(null);
        for (CounterGroup group : counters) {
            for (TezCounter counter : group) {
                saved.incrCounter(group.getName(), counter.getName(), counter.getValue());
            }
        }
        saved.save(new Configuration(), job.vertexFile().getParent(), "task-" + task);
    }
}
