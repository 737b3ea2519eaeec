package org.datampi.hive.app;

import org.apache.hadoop.hive.ql.io.HiveKey;
import org.datampi.shuffle.pairs.KeyPrefix;

/**
 * Hive's own key order (HiveKey.Comparator: the key bytes after BytesWritable's 4-byte length, which Hive's
 * BinarySortableSerDe makes byte-comparable), declared prefix-capable so that the shuffle's sort and merge compare
 * 8-byte prefixes first.
 */
public final class HiveKeyComparator extends HiveKey.Comparator implements KeyPrefix {
    @Override
    public int significantStart(byte[] key, int offset, int length) {
        return offset + Integer.BYTES;
    }
}
