package org.datampi.hive.app;

import static java.util.Objects.requireNonNull;

import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Partitioner;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The MPI_D partitioner of a Hive job: the job's own Hadoop partitioner (hive.partitioner, by default the hash of
 * the HiveKey that the ReduceSinkOperator computed; a sampled ORDER BY's total-order partitioner reads its partition
 * file from the job), so that an A task gets exactly what Hive's reducer would. Made from the job's configuration by
 * the task and handed to {@code MPI_D.Init}: a class name could not carry it.
 */
final class HivePartitioner implements org.datampi.mpid.Partitioner {
    private final Partitioner<Object, Object> hadoop;

    @SuppressWarnings("unchecked")
    HivePartitioner(JobConf job) {
        requireNonNull(job, "job is null");
        this.hadoop = ReflectionUtils.newInstance(job.getPartitionerClass(), job);
    }

    @Override
    public int getPartition(Object key, Object value, int numPartitions) {
        return hadoop.getPartition(key, value, numPartitions);
    }
}
