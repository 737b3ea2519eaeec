package org.datampi.hive.app;

import java.io.IOException;
import java.util.List;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.exec.mr.ExecMapper;
import org.apache.hadoop.hive.ql.exec.mr.ExecReducer;
import org.apache.hadoop.mapred.InputFormat;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapRunnable;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.util.ReflectionUtils;
import org.datampi.mpid.JobSetup;
import org.datampi.mpid.MPI_D;
import org.datampi.mpid.MPI_D_Exception;
import org.datampi.mpid.TaskProgram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every rank runs for a Hive stage (the paper's Fig. 5), once per scheduled task. An O task reads its input
 * split through the job's input format (Hive's, with column projection and predicate push-down) and runs the job's
 * map runner, Hive's ExecMapper, whose ReduceSinkOperator output goes straight to {@code MPI_D.Send}: a
 * (HiveKey, BytesWritable) pair to the A task Hive's partitioner picks. Before the first task every rank sets
 * the job up ({@link #setUpJob}). An A task runs ExecReducer over the groups of
 * {@code MPI_D.Recv()}, in HiveKey byte order. File sinks write and commit as in a Hadoop task; the job runner's
 * caller (Hive's ExecDriver) runs job-close afterwards.
 *
 * <p>Arguments: {@code SUBMIT_DIR JOB_ID}.
 */
public final class DataMPIHiveApplication implements TaskProgram {
    private static final Logger LOG = LoggerFactory.getLogger(DataMPIHiveApplication.class);
    /** The job this program's tasks run, read once by {@link #setUpJob}. Set up, tasks and close: one thread. */
    private SubmittedJob submitted;
    /** Whom the job's tasks run as ({@link JobUser}: file systems made from the job's configuration). */
    private JobUser jobUser;

    /** Made by the ranks' runtime for each job. */
    public DataMPIHiveApplication() {
    }

    /**
     * Once per job on every rank, before its first task: reads the job, localizes the files it lists over MPI
     * ({@link JobFiles}: map-join hash tables, ADD JAR jars) and gives the job a class loader with its jars.
     */
    @Override
    public void setUpJob(String[] args, JobSetup setup) throws IOException {
        // What Hive keeps per JVM, as a new Hadoop task JVM would not have it: ExecMapper's "done" flag, which a LIMIT
        // of an earlier job on this rank set, would make this job's record readers return nothing.
        ExecMapper.setDone(false);
        submitted = new SubmittedJob(new Path(args[0]), JobID.forName(args[1]), setup.host());
        jobUser = JobUser.start(submitted.job());
        JobFiles files = JobFiles.localize(submitted.job(), setup);
        files.useClassPath(submitted.job());
        if (setup.rank() == 0) {
            // Only rank 0's O-task scheduler places tasks.
            for (int task = 0; task < submitted.splitCount(); task++) {
                setup.preferHosts(task, submitted.splitHosts(task));
            }
        }
        if (setup.rank() == 0 && files.filesRead() > 0) {
            LOG.info("Hive query {}: {} job files ({} bytes) read once and broadcast to {} ranks",
                    submitted.queryId(), files.filesRead(), files.bytesRead(), setup.size());
            TaskCounters counters = new TaskCounters(null);
            counters.incrCounter(StageCounters.GROUP, StageCounters.JOB_FILES_READ, files.filesRead());
            counters.incrCounter(StageCounters.GROUP, StageCounters.JOB_FILE_BYTES_READ, files.bytesRead());
            counters.incrCounter(StageCounters.GROUP, StageCounters.JOB_FILE_RANKS, setup.size());
            counters.save(submitted.job(), submitted.submitDir(), "job-files");
        }
    }

    /** One O or A task of the job: Hive's map side over a split, or its reduce side over the task's pairs. */
    @Override
    public void runTask(String[] args) throws Exception {
        SubmittedJob job = submitted;
        if (job == null || !job.jobId().equals(JobID.forName(args[1]))) {
            throw TaskFailures.notSetUp(args[1]);
        }
        jobUser.call(() -> {
            MPI_D.Init(args, MPI_D.Mode.Common, HiveShuffle.PAIR_TYPES, new HivePartitioner(job.job()));
            if (MPI_D.COMM_BIPARTITE_O != null) {
                runOTask(job, MPI_D.Comm_rank(MPI_D.COMM_BIPARTITE_O));
            } else if (MPI_D.COMM_BIPARTITE_A != null) {
                runATask(job, MPI_D.Comm_rank(MPI_D.COMM_BIPARTITE_A));
            }
            MPI_D.Finalize();
            return null;
        });
    }

    /**
     * The job has ended on this rank: its user's file systems close, and Hive's plans cached for the job go, as they
     * would with the Hadoop task JVM that ran it.
     */
    @Override
    public void close() throws IOException {
        if (submitted != null) {
            Utilities.clearWorkMapForConf(submitted.job());
        }
        if (jobUser != null) {
            jobUser.close();
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void runOTask(SubmittedJob job, int task) throws IOException {
        TaskAttemptID attempt = job.attempt(TaskType.MAP, task);
        JobConf conf = job.taskConf(attempt);
        if (task >= job.splitCount()) {
            // An empty input has no split but a job needs an O task; as in Hadoop, the reducers still run.
            LOG.info("{}: no input split", attempt);
            return;
        }
        InputSplit split = job.split(conf, task);
        LOG.info("Hive query {}, {}: {}", job.queryId(), attempt, split);
        TaskCounters counters = new TaskCounters(split);
        List<String> splitHosts = job.splitHosts(task);
        if (!splitHosts.isEmpty()) {
            counters.incrCounter(splitHosts.contains(job.host()) ? JobCounter.DATA_LOCAL_MAPS
                    : JobCounter.OTHER_LOCAL_MAPS, 1);
        }
        TaskUsage usage = TaskUsage.start();
        InputFormat inputFormat = conf.getInputFormat();
        RecordReader reader;
        try {
            reader = inputFormat.getRecordReader(split, conf, counters);
        } catch (IOException | RuntimeException e) {
            // Opening a split reads its file's footer (Parquet, ORC): a corrupt file fails here, named as below.
            throw TaskFailures.onInputSplit(split, e);
        }
        MapRunnable runner = ReflectionUtils.newInstance(conf.getMapRunnerClass(), conf);
        OutputCollector<Object, Object> toATasks = conf.getNumReduceTasks() == 0
                ? (key, value) -> {
                    throw new IllegalStateException("A map-only stage produced a shuffle pair");
                }
                : (key, value) -> {
                    try {
                        MPI_D.Send(key, value);
                    } catch (MPI_D_Exception e) {
                        throw new IOException(e);
                    }
                };
        try {
            runner.run(reader, toATasks, counters);
        } catch (IOException | RuntimeException e) {
            throw TaskFailures.onInputSplit(split, e);
        } finally {
            reader.close();
        }
        usage.addTo(counters);
        counters.save(conf, job.submitDir(), attempt.toString());
    }

    private static void runATask(SubmittedJob job, int task) throws IOException, MPI_D_Exception {
        TaskAttemptID attempt = job.attempt(TaskType.REDUCE, task);
        JobConf conf = job.taskConf(attempt);
        LOG.info("Hive query {}, {}", job.queryId(), attempt);
        TaskCounters counters = new TaskCounters(null);
        TaskUsage usage = TaskUsage.start();
        ExecReducer reducer = new ExecReducer();
        reducer.configure(conf);
        OutputCollector<Object, Object> noOutput = (key, value) -> {
            throw new IllegalStateException("Hive's reduce side writes through its file sinks, not a collector");
        };
        KeyGroups groups = new KeyGroups(() -> {
            try {
                return MPI_D.Recv();
            } catch (MPI_D_Exception e) {
                throw new IOException("MPI_D.Recv failed in A task " + task, e);
            }
        });
        try {
            while (groups.nextKey()) {
                reducer.reduce(groups.key(), groups.values(), noOutput, counters);
            }
        } finally {
            reducer.close();
        }
        usage.addTo(counters);
        counters.save(conf, job.submitDir(), attempt.toString());
    }
}
