package org.datampi.shuffle.buffer;

import java.util.Arrays;
import java.util.Optional;

import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.util.IndexedSortable;
import org.apache.hadoop.util.QuickSort;

/**
 * One block of a send partition: the serialized pairs bound for one A task, with the offset of every pair and of
 * its key, so that the block can be sorted by raw key bytes without deserializing anything.
 */
public final class SendPartition {
    private static final QuickSort SORTER = new QuickSort();

    private final int blockSize;
    private byte[] data;
    private int length;
    private int[] pairOffsets = new int[256];
    private int[] keyOffsets = new int[256];
    private int[] keyLengths = new int[256];
    private int count;

    public SendPartition(int blockSize) {
        this.blockSize = blockSize;
        this.data = new byte[blockSize];
    }

    /** An empty block takes any pair, even one larger than the block size; otherwise the pair must fit. */
    public boolean hasRoomFor(int keyLength, int valueLength) {
        return count == 0 || length + PairFormat.serializedLength(keyLength, valueLength) <= blockSize;
    }

    public void append(byte[] key, int keyOffset, int keyLength, byte[] value, int valueOffset, int valueLength) {
        if (count == pairOffsets.length) {
            int grown = count * 2;
            pairOffsets = Arrays.copyOf(pairOffsets, grown);
            keyOffsets = Arrays.copyOf(keyOffsets, grown);
            keyLengths = Arrays.copyOf(keyLengths, grown);
        }
        int pairLength = PairFormat.serializedLength(keyLength, valueLength);
        if (length + pairLength > data.length) {
            data = Arrays.copyOf(data, Math.max(length + pairLength, data.length * 2));
        }
        pairOffsets[count] = length;
        length = PairFormat.write(data, length, key, keyOffset, keyLength, value, valueOffset, valueLength);
        keyLengths[count] = keyLength;
        keyOffsets[count] = length - valueLength - keyLength;
        count++;
    }

    public boolean isEmpty() {
        return count == 0;
    }

    public int pairCount() {
        return count;
    }

    public int byteLength() {
        return length;
    }

    public byte[] data() {
        return data;
    }

    public int pairOffset(int pair) {
        return pairOffsets[pair];
    }

    public int pairLength(int pair) {
        int end = pair + 1 < count ? pairOffsets[pair + 1] : length;
        return end - pairOffsets[pair];
    }

    public int keyOffset(int pair) {
        return keyOffsets[pair];
    }

    public int keyLength(int pair) {
        return keyLengths[pair];
    }

    public int valueOffset(int pair) {
        return keyOffsets[pair] + keyLengths[pair];
    }

    public int valueLength(int pair) {
        return pairOffset(pair) + pairLength(pair) - valueOffset(pair);
    }

    /**
     * The pair indexes in comparator order of their keys (Hadoop's QuickSort over an index permutation). With a
     * prefix-capable comparator the permutation is sorted together with the keys' prefixes, so most comparisons
     * read two adjacent longs instead of two keys.
     */
    public int[] sortedOrder(RawComparator<?> comparator) {
        int[] order = new int[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        Optional<KeyPrefix> keyPrefix = KeyPrefix.of(comparator);
        long[] prefixes = new long[keyPrefix.isPresent() ? count : 0];
        for (int i = 0; i < prefixes.length; i++) {
            prefixes[i] = keyPrefix.get().prefix(data, keyOffsets[i], keyLengths[i]);
        }
        byte[] bytes = data;
        SORTER.sort(new IndexedSortable() {
            @Override
            public int compare(int i, int j) {
                if (prefixes.length > 0 && prefixes[i] != prefixes[j]) {
                    return Long.compareUnsigned(prefixes[i], prefixes[j]);
                }
                int a = order[i];
                int b = order[j];
                return comparator.compare(bytes, keyOffsets[a], keyLengths[a], bytes, keyOffsets[b], keyLengths[b]);
            }

            @Override
            public void swap(int i, int j) {
                int held = order[i];
                order[i] = order[j];
                order[j] = held;
                if (prefixes.length > 0) {
                    long heldPrefix = prefixes[i];
                    prefixes[i] = prefixes[j];
                    prefixes[j] = heldPrefix;
                }
            }
        }, 0, count);
        return order;
    }

    public void reset() {
        if (data.length > blockSize) {
            data = new byte[blockSize];
        }
        length = 0;
        count = 0;
    }
}
