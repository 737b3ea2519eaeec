package org.datampi.shuffle.pairs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The radix sort of key prefixes against a comparison sort of the same prefixes (unsigned, stable). */
class PrefixSortTest {
    @ParameterizedTest(name = "{0} prefixes")
    @ValueSource(ints = {0, 1, 2, 3, 17, 1_000, 40_000})
    void sortsUnsignedAndStably(int count) {
        Random random = new Random(count);
        long[] prefixes = new long[count];
        for (int i = 0; i < count; i++) {
            // Some share every byte but one, some have the top bit set (negative as signed), some are equal.
            prefixes[i] = switch (i % 4) {
                case 0 -> random.nextLong();
                case 1 -> 0x8000_0000_0000_0000L | random.nextInt(4);
                case 2 -> 0x0102_0304_0506_0700L | random.nextInt(256);
                default -> prefixes[i / 2];
            };
        }
        int[] order = IntStream.range(0, count).toArray();
        Integer[] expected = IntStream.range(0, count).boxed().toArray(Integer[]::new);
        long[] original = prefixes.clone();
        // A stable comparison sort: equal prefixes keep their indexes' order.
        Arrays.sort(expected, Comparator.comparing((Integer i) -> original[i], Long::compareUnsigned));

        PrefixSort.sort(prefixes, order, count);

        assertArrayEquals(Arrays.stream(expected).mapToInt(Integer::intValue).toArray(), order);
        assertArrayEquals(Arrays.stream(expected).mapToLong(i -> original[i]).toArray(), prefixes);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(longs = {0L, -1L, 42L})
    void prefixesThatAreAllEqualStayInPlace(long prefix) {
        long[] prefixes = new long[100];
        Arrays.fill(prefixes, prefix);
        int[] order = IntStream.range(0, 100).map(i -> 99 - i).toArray();

        PrefixSort.sort(prefixes, order, 100);

        assertArrayEquals(IntStream.range(0, 100).map(i -> 99 - i).toArray(), order);
    }
}
