package org.datampi.mpid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;

class PartitionerTest {
    @Test
    void hashPartitioningMatchesHadoopsForWritablesAndStaysInRange() {
        HashPartitioner partitioner = new HashPartitioner();
        org.apache.hadoop.mapreduce.lib.partition.HashPartitioner<Text, Object> hadoop =
                new org.apache.hadoop.mapreduce.lib.partition.HashPartitioner<>();
        for (int i = 0; i < 1_000; i++) {
            Text key = new Text("key-" + i);
            int partition = partitioner.getPartition(key, null, 7);
            assertEquals(hadoop.getPartition(key, null, 7), partition);
        }
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 1_000; i++) {
            byte[] key = new byte[1 + random.nextInt(20)];
            random.nextBytes(key);
            int partition = partitioner.getPartition(key, null, 5);
            assertTrue(partition >= 0 && partition < 5);
        }
    }
}
