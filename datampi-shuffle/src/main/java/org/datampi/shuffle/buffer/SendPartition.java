package org.datampi.shuffle.buffer;

import java.util.Arrays;
import java.util.Optional;

import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.util.IndexedSortable;
import org.apache.hadoop.util.QuickSort;
import org.datampi.shuffle.pairs.KeyPrefix;
import org.datampi.shuffle.pairs.PairFormat;
import org.datampi.shuffle.pairs.PrefixSort;

/**
 * One block of a send partition: the serialized pairs bound for one A task, with the offset of every pair and of
 * its key, so that the block can be sorted by raw key bytes without deserializing anything. Its arrays are allocated
 * on the first pair, as large as its list's share of memory allows (a full block when there is room for one per
 * partition), and grow by doubling up to the block size, so that a task sending to thousands of partitions holds what
 * it has buffered rather than a full block each; {@link #heldBytes} says what it holds, for {@link SendPartitionList}
 * to reserve.
 */
public final class SendPartition {
    private static final QuickSort SORTER = new QuickSort();
    /** Pairs with equal prefixes up to this many are put in key order by insertion, more by QuickSort. */
    private static final int INSERTION_SORT_PAIRS = 16;
    private static final int MIN_DATA_BYTES = 4 * 1024;
    private static final int MIN_PAIRS = 16;
    /** The index's first size: a pair of 64 bytes on average, no fewer than MIN_PAIRS. */
    private static final int FIRST_PAIR_BYTES = 64;
    /** A pair's index: its offset, its key's offset and its key's length. */
    private static final int INDEX_BYTES_PER_PAIR = 3 * Integer.BYTES;
    private static final byte[] NO_DATA = new byte[0];
    private static final int[] NO_INDEX = new int[0];

    private final int blockSize;
    private final int firstDataBytes;
    private byte[] data = NO_DATA;
    private int length;
    private int[] pairOffsets = NO_INDEX;
    private int[] keyOffsets = NO_INDEX;
    private int[] keyLengths = NO_INDEX;
    private int count;

    public SendPartition(int blockSize) {
        this(blockSize, blockSize);
    }

    /** A block of up to BLOCK_SIZE bytes whose data array starts at FIRST_DATA_BYTES (4 KB to the block size). */
    public SendPartition(int blockSize, int firstDataBytes) {
        if (blockSize <= 0) {
            throw new IllegalArgumentException("block size must be positive: " + blockSize);
        }
        this.blockSize = blockSize;
        this.firstDataBytes = Math.max(Math.min(MIN_DATA_BYTES, blockSize), Math.min(firstDataBytes, blockSize));
    }

    /** Bytes the block holds in the heap: its data array and its index of pairs. */
    public long heldBytes() {
        return data.length + (long) INDEX_BYTES_PER_PAIR * pairOffsets.length;
    }

    /** Whether a pair of these lengths fits the block's arrays as they are: the common case, checked per pair. */
    public boolean fits(int keyLength, int valueLength) {
        return count < pairOffsets.length
                && length + PairFormat.serializedLength(keyLength, valueLength) <= data.length;
    }

    /** How many bytes more the block would hold after appending a pair of these lengths: 0 when it fits as it is. */
    public long growthFor(int keyLength, int valueLength) {
        int dataCapacity = dataCapacityFor(length + PairFormat.serializedLength(keyLength, valueLength));
        int indexCapacity = indexCapacityFor(count + 1);
        return dataCapacity - data.length + (long) INDEX_BYTES_PER_PAIR * (indexCapacity - pairOffsets.length);
    }

    /**
     * The data array's length once it holds NEEDED bytes: doubling from its first size up to the block size, or one
     * pair's length where that alone is larger.
     */
    private int dataCapacityFor(int needed) {
        if (needed <= data.length) {
            return data.length;
        }
        int doubled = (int) Math.min(blockSize, Math.max(firstDataBytes, 2L * data.length));
        return Math.max(needed, doubled);
    }

    private int indexCapacityFor(int pairs) {
        if (pairs <= pairOffsets.length) {
            return pairOffsets.length;
        }
        int first = Math.max(MIN_PAIRS, firstDataBytes / FIRST_PAIR_BYTES);
        return (int) Math.max(pairs, Math.max(first, 2L * pairOffsets.length));
    }

    /** An empty block takes any pair, even one larger than the block size; otherwise the pair must fit. */
    public boolean hasRoomFor(int keyLength, int valueLength) {
        return count == 0 || length + PairFormat.serializedLength(keyLength, valueLength) <= blockSize;
    }

    public void append(byte[] key, int keyOffset, int keyLength, byte[] value, int valueOffset, int valueLength) {
        int pairLength = PairFormat.serializedLength(keyLength, valueLength);
        int indexCapacity = indexCapacityFor(count + 1);
        if (indexCapacity > pairOffsets.length) {
            pairOffsets = Arrays.copyOf(pairOffsets, indexCapacity);
            keyOffsets = Arrays.copyOf(keyOffsets, indexCapacity);
            keyLengths = Arrays.copyOf(keyLengths, indexCapacity);
        }
        int dataCapacity = dataCapacityFor(length + pairLength);
        if (dataCapacity > data.length) {
            data = Arrays.copyOf(data, dataCapacity);
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
     * The pair indexes in comparator order of their keys. With a prefix-capable comparator the keys' prefixes are
     * sorted by radix ({@link PrefixSort}) and only pairs whose prefixes are equal are compared, by the comparator;
     * otherwise Hadoop's QuickSort compares keys.
     */
    public int[] sortedOrder(RawComparator<?> comparator) {
        int[] order = new int[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        Optional<KeyPrefix> keyPrefix = KeyPrefix.of(comparator);
        if (keyPrefix.isEmpty()) {
            sortByKey(order, 0, count, comparator);
            return order;
        }
        long[] prefixes = new long[count];
        for (int i = 0; i < count; i++) {
            prefixes[i] = keyPrefix.get().prefix(data, keyOffsets[i], keyLengths[i]);
        }
        PrefixSort.sort(prefixes, order, count);
        for (int start = 0, end; start < count; start = end) {
            end = start + 1;
            while (end < count && prefixes[end] == prefixes[start]) {
                end++;
            }
            if (end - start > 1) {
                sortByKey(order, start, end, comparator);
            }
        }
        return order;
    }

    /** Sorts ORDER[from, to) by the keys of the pairs it names: by insertion when short, else by QuickSort. */
    private void sortByKey(int[] order, int from, int to, RawComparator<?> comparator) {
        byte[] bytes = data;
        if (to - from <= INSERTION_SORT_PAIRS) {
            for (int i = from + 1; i < to; i++) {
                int pair = order[i];
                int j = i - 1;
                while (j >= from && comparator.compare(bytes, keyOffsets[order[j]], keyLengths[order[j]], bytes,
                        keyOffsets[pair], keyLengths[pair]) > 0) {
                    order[j + 1] = order[j];
                    j--;
                }
                order[j + 1] = pair;
            }
            return;
        }
        SORTER.sort(new IndexedSortable() {
            @Override
            public int compare(int i, int j) {
                int a = order[i];
                int b = order[j];
                return comparator.compare(bytes, keyOffsets[a], keyLengths[a], bytes, keyOffsets[b], keyLengths[b]);
            }

            @Override
            public void swap(int i, int j) {
                int held = order[i];
                order[i] = order[j];
                order[j] = held;
            }
        }, from, to);
    }

    /** Empties the block for its next pairs, keeping its arrays unless one pair made the data larger than a block. */
    public void reset() {
        if (data.length > blockSize) {
            data = NO_DATA;
        }
        length = 0;
        count = 0;
    }

    /** Empties the block and drops its arrays: it holds nothing until its next pair. */
    public void release() {
        data = NO_DATA;
        pairOffsets = NO_INDEX;
        keyOffsets = NO_INDEX;
        keyLengths = NO_INDEX;
        length = 0;
        count = 0;
    }
}
