package org.datampi.examples;

import org.datampi.mpid.Partitioner;

/** Splits raw byte keys into contiguous ranges by their first two bytes: A task order is key order. */
public final class KeyRangePartitioner implements Partitioner {
    @Override
    public int getPartition(Object key, Object value, int numPartitions) {
        byte[] bytes = (byte[]) key;
        int prefix = ((bytes[0] & 0xFF) << 8) | (bytes.length > 1 ? bytes[1] & 0xFF : 0);
        return (int) ((long) prefix * numPartitions >> 16);
    }
}
