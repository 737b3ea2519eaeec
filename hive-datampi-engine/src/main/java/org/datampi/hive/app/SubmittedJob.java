package org.datampi.hive.app;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.List;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.split.JobSplit;
import org.apache.hadoop.mapreduce.split.SplitMetaInfoReader;
import org.datampi.mpid.HostNames;

/**
 * A job as Hive's JobClient submitted it: the submit directory with job.xml and the input splits. Gives each task
 * its own configuration, localized as Hadoop localizes a task's (attempt id, partition, map or reduce), and its split.
 */
final class SubmittedJob {
    private final Path submitDir;
    private final JobID jobId;
    private final JobConf job;
    private final String host;
    private JobSplit.TaskSplitMetaInfo[] splits;

    SubmittedJob(Path submitDir, JobID jobId, String host) throws IOException {
        this.submitDir = requireNonNull(submitDir, "submitDir is null");
        this.jobId = requireNonNull(jobId, "jobId is null");
        this.host = HostNames.shortName(requireNonNull(host, "host is null"));
        this.job = SubmitDirectory.jobConf(submitDir);
    }

    JobConf job() {
        return job;
    }

    JobID jobId() {
        return jobId;
    }

    Path submitDir() {
        return submitDir;
    }

    /** The Hive query the job belongs to, and its stage: what a rank's log names. */
    String queryId() {
        return job.get("hive.query.id", "?") + " (" + job.get(MRJobConfig.JOB_NAME, "?") + ")";
    }

    /** A copy of the job configuration for one task attempt. */
    JobConf taskConf(TaskAttemptID attempt) {
        JobConf task = new JobConf(job);
        task.set(MRJobConfig.TASK_ATTEMPT_ID, attempt.toString());
        task.set(MRJobConfig.TASK_ID, attempt.getTaskID().toString());
        task.set(MRJobConfig.ID, jobId.toString());
        task.setBoolean(MRJobConfig.TASK_ISMAP, attempt.getTaskType() == TaskType.MAP);
        task.setInt(MRJobConfig.TASK_PARTITION, attempt.getTaskID().getId());
        return task;
    }

    private JobSplit.TaskSplitMetaInfo[] splitMetaInfo() throws IOException {
        if (splits == null) {
            splits = SplitMetaInfoReader.readSplitMetaInfo(jobId, submitDir.getFileSystem(job), job, submitDir);
        }
        return splits;
    }

    TaskAttemptID attempt(TaskType type, int task) {
        return new TaskAttemptID(new TaskID(jobId, type, task), 0);
    }

    /** How many input splits the job has (none for an empty input; the job then still has one O task). */
    int splitCount() throws IOException {
        return splitMetaInfo().length;
    }

    /** The host this rank runs on, by its short name. */
    String host() {
        return host;
    }

    /**
     * The hosts that hold O task {@code task}'s input ({@link HostNames#ofSplit}), as the job submitter recorded them
     * (HDFS block locations); none for an input on the local file system, whose splits all say "localhost".
     */
    List<String> splitHosts(int task) throws IOException {
        return HostNames.ofSplit(splitMetaInfo()[task].getLocations());
    }

    /** The input split of O task {@code task}, read as Hadoop's MapTask reads it. */
    InputSplit split(JobConf conf, int task) throws IOException {
        JobSplit.TaskSplitIndex index = splitMetaInfo()[task].getSplitIndex();
        Path file = new Path(index.getSplitLocation());
        FileSystem fs = file.getFileSystem(conf);
        try (FSDataInputStream in = fs.open(file)) {
            in.seek(index.getStartOffset());
            String className = Text.readString(in);
            Class<?> type;
            try {
                type = conf.getClassByName(className);
            } catch (ClassNotFoundException e) {
                throw new IOException("Split class " + className + " is not on the ranks' classpath", e);
            }
            @SuppressWarnings("unchecked")
            Deserializer<InputSplit> deserializer =
                    (Deserializer<InputSplit>) new SerializationFactory(conf).getDeserializer(type);
            deserializer.open(in);
            return deserializer.deserialize(null);
        }
    }
}
