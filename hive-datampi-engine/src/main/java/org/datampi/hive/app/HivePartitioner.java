package org.datampi.hive.app;

import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Partitioner;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The MPI_D partitioner of a Hive job: the job's own Hadoop partitioner (hive.partitioner, by default the hash of
 * the HiveKey that the ReduceSinkOperator computed), so that an A task gets exactly what Hive's reducer would.
 * MPI_D creates it by class name, so it takes the job configuration from the running application.
 */
public final class HivePartitioner implements org.datampi.mpid.Partitioner {
    private static volatile JobConf job;

    private final Partitioner<Object, Object> hadoop;

    @SuppressWarnings("unchecked")
    public HivePartitioner() {
        JobConf conf = job;
        if (conf == null) {
            throw new IllegalStateException("HivePartitioner used before the job configuration was set");
        }
        this.hadoop = ReflectionUtils.newInstance(conf.getPartitionerClass(), conf);
    }

    static void useJob(JobConf conf) {
        job = conf;
    }

    @Override
    public int getPartition(Object key, Object value, int numPartitions) {
        return hadoop.getPartition(key, value, numPartitions);
    }
}
