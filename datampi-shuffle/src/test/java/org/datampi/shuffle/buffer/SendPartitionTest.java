package org.datampi.shuffle.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.datampi.shuffle.merge.MemoryRunCursor;
import org.apache.hadoop.io.DataOutputBuffer;
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
        SendPartitionList list = new SendPartitionList(3, 4096, (partition, block) -> {
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
    }

    private static List<String> sortedTexts(List<byte[][]> pairs) {
        return pairs.stream().map(Pairs::text).sorted().toList();
    }
}
