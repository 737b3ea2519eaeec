package org.datampi.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.datampi.shuffle.pairs.BytesComparator;
import org.junit.jupiter.api.Test;

class KeyRangePartitionerTest {
    @Test
    void rangePartitioningKeepsKeyOrderAcrossPartitions() {
        KeyRangePartitioner partitioner = new KeyRangePartitioner();
        SplittableRandom random = new SplittableRandom(2);
        for (int i = 0; i < 5_000; i++) {
            byte[] a = new byte[1 + random.nextInt(10)];
            byte[] b = new byte[1 + random.nextInt(10)];
            random.nextBytes(a);
            random.nextBytes(b);
            if (BytesComparator.INSTANCE.compare(a, b) <= 0) {
                assertTrue(partitioner.getPartition(a, null, 6) <= partitioner.getPartition(b, null, 6));
            }
        }
        assertEquals(0, partitioner.getPartition(new byte[] {0}, null, 6));
        assertEquals(5, partitioner.getPartition(new byte[] {(byte) 0xFF, (byte) 0xFF}, null, 6));
    }
}
