package org.datampi.hive.app;

import java.util.Map;

import org.apache.hadoop.hive.ql.io.HiveKey;
import org.apache.hadoop.io.BytesWritable;
import org.apache.tez.runtime.api.MemoryUpdateCallback;
import org.apache.tez.runtime.api.TaskContext;
import org.datampi.mpid.MpidConf;

/**
 * What the shuffle of a Hive stage is, in both plan shapes: pairs of a HiveKey (whose hash Hive's reduce sink set)
 * and a BytesWritable, partitioned by the stage's partitioner ({@link HivePartitioner}) and merged in HiveKey byte
 * order, as Hadoop's and Tez's shuffles order them.
 */
final class HiveShuffle {
    /**
     * The pairs' types and key order: MPI_D's settings for every Hive stage (a MapReduce-shaped stage's tasks add its
     * partitioner, {@link HivePartitioner}; a DAG's edges partition with their own).
     */
    static final Map<String, String> PAIR_TYPES = Map.of(
            MpidConf.KEY_CLASS, HiveKey.class.getName(),
            MpidConf.VALUE_CLASS, BytesWritable.class.getName(),
            MpidConf.COMPARATOR_CLASS, HiveKeyComparator.class.getName());

    private HiveShuffle() {
    }

    /**
     * Tez's memory distributor expects every input and output of a task to ask for its share; the shuffle's edges
     * keep nothing of their own (the shuffle's memory is the rank's, under mpid.memusedpercent).
     */
    static void requestNoMemory(TaskContext context) {
        context.requestInitialMemory(0, new MemoryUpdateCallback() {
            @Override
            public void memoryAssigned(long bytes) {
                // Nothing to size.
            }
        });
    }
}
