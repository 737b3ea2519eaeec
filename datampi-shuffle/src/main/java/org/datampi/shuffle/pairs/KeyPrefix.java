package org.datampi.shuffle.pairs;

import java.util.Optional;

import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;

/**
 * The first 8 significant bytes of a serialized key as an unsigned long, for comparators whose order is the unsigned
 * lexicographic order of the key's bytes from some offset on. Sorting and merging compare these prefixes first and
 * call the comparator only when two prefixes are equal, which saves most key comparisons (and the cache misses of
 * reading keys from hundreds of runs) for keys that differ early, as Hive's do.
 *
 * <p>A comparator opts in by implementing this interface; {@link #of} also knows Hadoop's Text and BytesWritable
 * comparators.
 */
public interface KeyPrefix {
    /** Where the compared bytes of the key at offset start. */
    int significantStart(byte[] key, int offset, int length);

    /** The big-endian unsigned value of the first 8 compared bytes, zero-padded: a smaller prefix means a smaller key. */
    default long prefix(byte[] key, int offset, int length) {
        int start = significantStart(key, offset, length);
        int end = offset + length;
        long prefix = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            prefix = (prefix << 8) | (start + i < end ? key[start + i] & 0xFF : 0);
        }
        return prefix;
    }

    /** The prefix function that agrees with comparator, if it is a byte-lexicographic one this code knows. */
    static Optional<KeyPrefix> of(RawComparator<?> comparator) {
        if (comparator instanceof KeyPrefix prefix) {
            return Optional.of(prefix);
        }
        if (comparator.getClass() == Text.Comparator.class) {
            return Optional.of((key, offset, length) -> offset + WritableUtils.decodeVIntSize(key[offset]));
        }
        if (comparator.getClass() == BytesWritable.Comparator.class) {
            return Optional.of((key, offset, length) -> offset + Integer.BYTES);
        }
        return Optional.empty();
    }
}
