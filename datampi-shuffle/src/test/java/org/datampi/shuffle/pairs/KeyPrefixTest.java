package org.datampi.shuffle.pairs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparator;
import org.junit.jupiter.api.Test;

/** A prefix may only ever agree with its comparator: a smaller prefix must mean a smaller key. */
class KeyPrefixTest {
    @Test
    void rawBytesPrefixesAgreeWithTheComparator() {
        assertAgrees(BytesComparator.INSTANCE, serializedKeys(bytes -> null));
    }

    @Test
    void textPrefixesSkipTheLengthAndAgree() {
        assertAgrees(WritableComparator.get(Text.class),
                serializedKeys(bytes -> new Text(new String(bytes, StandardCharsets.ISO_8859_1))));
    }

    @Test
    void bytesWritablePrefixesSkipTheLengthAndAgree() {
        assertAgrees(WritableComparator.get(BytesWritable.class), serializedKeys(BytesWritable::new));
    }

    @Test
    void comparatorsWithAnotherOrderHaveNoPrefix() {
        assertTrue(KeyPrefix.of(WritableComparator.get(IntWritable.class)).isEmpty());
    }

    private static void assertAgrees(RawComparator<?> comparator, List<byte[]> keys) {
        KeyPrefix prefix = KeyPrefix.of(comparator).orElseThrow();
        for (byte[] a : keys) {
            for (byte[] b : keys) {
                long pa = prefix.prefix(a, 0, a.length);
                long pb = prefix.prefix(b, 0, b.length);
                int order = comparator.compare(a, 0, a.length, b, 0, b.length);
                if (Long.compareUnsigned(pa, pb) < 0) {
                    assertTrue(order < 0, Arrays.toString(a) + " vs " + Arrays.toString(b));
                }
            }
        }
    }

    /** Keys with shared prefixes, high bytes, and lengths around 8, serialized as the writable makes them. */
    private static List<byte[]> serializedKeys(Function<byte[], Writable> writable) {
        SplittableRandom random = new SplittableRandom(9);
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            byte[] raw = new byte[random.nextInt(14)];
            for (int j = 0; j < raw.length; j++) {
                raw[j] = (byte) (j < 5 && i % 2 == 0 ? 'a' : random.nextInt(256));
            }
            Writable w = writable.apply(raw);
            if (w == null) {
                keys.add(raw);
                continue;
            }
            DataOutputBuffer out = new DataOutputBuffer();
            try {
                w.write(out);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            keys.add(Arrays.copyOf(out.getData(), out.getLength()));
        }
        return keys;
    }
}
