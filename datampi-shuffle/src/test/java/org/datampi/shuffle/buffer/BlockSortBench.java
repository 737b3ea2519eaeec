package org.datampi.shuffle.buffer;

import java.util.Locale;
import java.util.Random;

import org.apache.hadoop.util.IndexedSortable;
import org.apache.hadoop.util.QuickSort;
import org.datampi.shuffle.pairs.BytesComparator;
import org.datampi.shuffle.pairs.KeyPrefix;

/**
 * How long a full send block takes to sort, {@link SendPartition#sortedOrder} (a radix sort of the keys' prefixes)
 * against the comparison sort it replaced (Hadoop's QuickSort comparing prefixes, then keys), on the same block, in
 * one JVM, alternating. Not a test: run by hand after {@code mvn -pl datampi-shuffle -am package},
 * {@code java -cp "datampi-shuffle/target/test-classes:datampi-shuffle/target/classes:datampi-shuffle/target/lib/*"
 * org.datampi.shuffle.buffer.BlockSortBench [BLOCK_BYTES]}. Two kinds of key: 20 random bytes (prefixes differ) and
 * BinarySortable-like BIGINTs (a marker and 8 bytes, so prefixes tie on their last byte).
 */
public final class BlockSortBench {
    private static final int ROUNDS = 5;
    private static final int SORTS_PER_ROUND = 200;

    private BlockSortBench() {
    }

    public static void main(String[] args) {
        int blockBytes = args.length > 0 ? Integer.parseInt(args[0]) : 256 * 1024;
        for (String kind : new String[] {"random 20-byte keys", "bigint keys"}) {
            SendPartition block = fill(blockBytes, kind.startsWith("random"));
            double comparison = 0;
            double radix = 0;
            for (int round = 0; round < ROUNDS; round++) {
                comparison = microsPerSort(() -> comparisonOrder(block));
                radix = microsPerSort(() -> block.sortedOrder(BytesComparator.INSTANCE));
            }
            System.out.printf(Locale.ROOT, "%s, %,d pairs in a %,d-byte block: comparison sort %.0f us, radix %.0f us, "
                    + "%.2f times faster%n", kind, block.pairCount(), blockBytes, comparison, radix, comparison / radix);
        }
    }

    private static SendPartition fill(int blockBytes, boolean randomKeys) {
        Random random = new Random(1);
        SendPartition block = new SendPartition(blockBytes);
        byte[] value = new byte[12];
        while (true) {
            byte[] key;
            if (randomKeys) {
                key = new byte[20];
                random.nextBytes(key);
            } else {
                key = new byte[9];
                key[0] = 1;
                long number = random.nextInt(1 << 20);
                for (int i = 0; i < Long.BYTES; i++) {
                    key[1 + i] = (byte) (number >>> (56 - 8 * i));
                }
            }
            if (!block.hasRoomFor(key.length, value.length)) {
                return block;
            }
            block.append(key, 0, key.length, value, 0, value.length);
        }
    }

    private static double microsPerSort(Runnable sort) {
        long start = System.nanoTime();
        for (int i = 0; i < SORTS_PER_ROUND; i++) {
            sort.run();
        }
        return (System.nanoTime() - start) / 1e3 / SORTS_PER_ROUND;
    }

    /** The sort SendPartition used before: QuickSort over the pair indexes, comparing prefixes, then keys. */
    private static int[] comparisonOrder(SendPartition block) {
        int count = block.pairCount();
        int[] order = new int[count];
        long[] prefixes = new long[count];
        KeyPrefix keyPrefix = BytesComparator.INSTANCE;
        byte[] bytes = block.data();
        for (int i = 0; i < count; i++) {
            order[i] = i;
            prefixes[i] = keyPrefix.prefix(bytes, block.keyOffset(i), block.keyLength(i));
        }
        new QuickSort().sort(new IndexedSortable() {
            @Override
            public int compare(int i, int j) {
                if (prefixes[i] != prefixes[j]) {
                    return Long.compareUnsigned(prefixes[i], prefixes[j]);
                }
                int a = order[i];
                int b = order[j];
                return BytesComparator.INSTANCE.compare(bytes, block.keyOffset(a), block.keyLength(a), bytes,
                        block.keyOffset(b), block.keyLength(b));
            }

            @Override
            public void swap(int i, int j) {
                int held = order[i];
                order[i] = order[j];
                order[j] = held;
                long heldPrefix = prefixes[i];
                prefixes[i] = prefixes[j];
                prefixes[j] = heldPrefix;
            }
        }, 0, count);
        return order;
    }
}
