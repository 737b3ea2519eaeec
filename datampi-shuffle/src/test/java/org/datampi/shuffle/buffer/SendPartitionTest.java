package org.datampi.shuffle.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.datampi.shuffle.merge.MemoryRunCursor;
import org.datampi.shuffle.pairs.BytesComparator;
import org.junit.jupiter.api.Test;

class SendPartitionTest {
    @Test
    void sortedOrderVisitsEveryPairInUnsignedKeyOrder() throws Exception {
        SendPartition block = new SendPartition(1 << 20);
        List<byte[][]> pairs = Pairs.random(1, 2_000, 12);
        for (byte[][] pair : pairs) {
            block.append(pair[0], 0, pair[0].length, pair[1], 0, pair[1].length);
        }

        DataOutputBuffer sorted = new DataOutputBuffer();
        for (int pair : block.sortedOrder(BytesComparator.INSTANCE)) {
            sorted.write(block.data(), block.pairOffset(pair), block.pairLength(pair));
        }

        List<String> read = Pairs.drainSorted(new MemoryRunCursor(sorted.getData(), sorted.getLength()));
        assertEquals(sortedTexts(pairs), read.stream().sorted().toList());
        assertEquals(pairs.size(), read.size());
    }

    /**
     * Keys that share their first 8 bytes or more (ties of the prefixes the radix sort orders by, many for one prefix
     * and a few for each of many), equal keys and short keys: in comparator order, every pair once, with a prefix-capable comparator and with one without prefixes.
     */
    @Test
    void keysWithEqualPrefixesAreOrderedByTheComparator() {
        Random random = new Random(7);
        SendPartition block = new SendPartition(1 << 20);
        for (int i = 0; i < 5_000; i++) {
            byte[] key = switch (i % 4) {
                // One prefix for a third of the keys (its ties sorted by QuickSort)...
                case 0 -> new byte[] {1, 2, 3, 4, 5, 6, 7, 8, (byte) random.nextInt(256), (byte) random.nextInt(3)};
                case 1 -> new byte[] {(byte) random.nextInt(2)};
                // ... and a few keys for each of 250 prefixes (by insertion).
                case 2 -> new byte[] {2, 2, 2, 2, 2, 2, 2, (byte) (i % 250), (byte) random.nextInt(256)};
                default -> new byte[] {9, 9, 9, 9, 9, 9, 9, 9, 9};
            };
            block.append(key, 0, key.length, new byte[] {(byte) i}, 0, 1);
        }
        RawComparator<byte[]> withoutPrefix = new RawComparator<>() {
            @Override
            public int compare(byte[] a, int aOffset, int aLength, byte[] b, int bOffset, int bLength) {
                return BytesComparator.INSTANCE.compare(a, aOffset, aLength, b, bOffset, bLength);
            }

            @Override
            public int compare(byte[] a, byte[] b) {
                return BytesComparator.INSTANCE.compare(a, b);
            }
        };

        for (RawComparator<byte[]> comparator : List.of(BytesComparator.INSTANCE, withoutPrefix)) {
            int[] order = block.sortedOrder(comparator);
            assertEquals(block.pairCount(), Arrays.stream(order).distinct().count(), "every pair once");
            for (int i = 1; i < order.length; i++) {
                int previous = order[i - 1];
                int pair = order[i];
                assertTrue(comparator.compare(block.data(), block.keyOffset(previous), block.keyLength(previous),
                        block.data(), block.keyOffset(pair), block.keyLength(pair)) <= 0, "in key order at " + i);
            }
        }
    }

    @Test
    void keyAndValueOffsetsDescribeEachPair() {
        SendPartition block = new SendPartition(4096);
        block.append(new byte[] {1, 2, 3}, 0, 3, new byte[] {9, 8}, 0, 2);
        block.append(new byte[] {7}, 0, 1, new byte[0], 0, 0);

        assertEquals(3, block.keyLength(0));
        assertEquals(1, block.data()[block.keyOffset(0)]);
        assertEquals(2, block.valueLength(0));
        assertEquals(9, block.data()[block.valueOffset(0)]);
        assertEquals(7, block.data()[block.keyOffset(1)]);
        assertEquals(0, block.valueLength(1));
        assertEquals(block.byteLength(), block.pairLength(0) + block.pairLength(1));
    }

    @Test
    void aFullBlockRefusesAPairButAnEmptyBlockTakesAnOversizedOne() {
        SendPartition block = new SendPartition(4096);
        byte[] big = new byte[10_000];
        assertTrue(block.hasRoomFor(big.length, 0));
        block.append(big, 0, big.length, new byte[0], 0, 0);
        assertFalse(block.hasRoomFor(1, 1));
        block.reset();
        assertTrue(block.isEmpty());
        assertTrue(block.hasRoomFor(100, 100));
    }

    @Test
    void sendPartitionListHandsOverFullBlocksAndFlushesTheRest() {
        List<Integer> flushed = new ArrayList<>();
        List<Integer> pairCounts = new ArrayList<>();
        ShuffleMemory memory = new ShuffleMemory(1 << 20, 1 << 20);
        SendPartitionList list = new SendPartitionList(3, 4096, memory, (partition, block) -> {
            flushed.add(partition);
            pairCounts.add(block.pairCount());
        });
        byte[] value = new byte[100];
        for (int i = 0; i < 100; i++) {
            list.add(1, new byte[] {(byte) i}, 0, 1, value, 0, value.length);
        }
        list.add(2, new byte[] {1}, 0, 1, value, 0, 1);
        assertTrue(flushed.stream().allMatch(p -> p == 1), "only partition 1 filled up: " + flushed);

        list.flushAll();
        assertEquals(2, (int) flushed.get(flushed.size() - 1));
        assertEquals(101, pairCounts.stream().mapToInt(Integer::intValue).sum());
        assertEquals(0, memory.sendBytes(), "the task's last flush releases every block");
    }

    /**
     * 2,000 partitions of 256 KB blocks under a 1 MB share: the list sends its fullest block early instead of holding
     * 500 MB, every pair still goes out once, and what it holds never exceeds the share.
     */
    @Test
    void aListWithManyPartitionsStaysWithinItsShareOfMemory() {
        long share = 1 << 20;
        ShuffleMemory memory = new ShuffleMemory(share, 1 << 20);
        long[] pairsSent = new long[1];
        SendPartitionList list = new SendPartitionList(2_000, 256 * 1024, memory,
                (partition, block) -> pairsSent[0] += block.pairCount());
        byte[] value = new byte[200];
        Random random = new Random(7);
        long mostHeld = 0;
        for (int i = 0; i < 100_000; i++) {
            list.add(random.nextInt(2_000), new byte[] {(byte) i}, 0, 1, value, 0, value.length);
            mostHeld = Math.max(mostHeld, memory.sendBytes());
            assertEquals(list.heldBytes(), memory.sendBytes(), "the list reserved what it holds");
        }
        list.flushAll();
        assertEquals(100_000, pairsSent[0], "every pair sent once");
        assertTrue(mostHeld <= share, "held " + mostHeld + " bytes, over the share of " + share);
        assertTrue(memory.peakSendBytes() > share / 2, "the share was used: " + memory.peakSendBytes());
        assertEquals(0, memory.sendBytes());
    }

    /** A pair larger than the whole share still goes out: a list holding nothing else is granted its one block. */
    @Test
    void aPairLargerThanTheShareStillGoesOut() {
        ShuffleMemory memory = new ShuffleMemory(1024, 1024);
        List<Integer> sizes = new ArrayList<>();
        SendPartitionList list = new SendPartitionList(2, 4096, memory,
                (partition, block) -> sizes.add(block.byteLength()));
        list.add(0, new byte[] {1}, 0, 1, new byte[10], 0, 10);
        byte[] large = new byte[10_000];
        list.add(1, new byte[] {2}, 0, 1, large, 0, large.length);
        assertTrue(memory.sendBytes() >= large.length, "the large pair's block is reserved");
        list.flushAll();
        assertEquals(2, sizes.size(), "both pairs went out: " + sizes);
        assertEquals(0, memory.sendBytes());
    }

    private static List<String> sortedTexts(List<byte[][]> pairs) {
        return pairs.stream().map(Pairs::text).sorted().toList();
    }
}
