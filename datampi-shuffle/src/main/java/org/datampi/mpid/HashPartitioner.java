package org.datampi.mpid;

import org.apache.hadoop.io.WritableComparator;

/** Hadoop's hash partitioning: the key's hash code (of its bytes for a byte array), modulo the A task count. */
public final class HashPartitioner implements Partitioner {
    @Override
    public int getPartition(Object key, Object value, int numPartitions) {
        int hash = key instanceof byte[] bytes ? WritableComparator.hashBytes(bytes, bytes.length) : key.hashCode();
        return (hash & Integer.MAX_VALUE) % numPartitions;
    }
}
