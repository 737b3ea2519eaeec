package org.datampi.mpid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparable;
import org.datampi.shuffle.pairs.BytesComparator;
import org.junit.jupiter.api.Test;

/** Sorting never deserializes: the raw comparators must order serialized keys as the objects order themselves. */
class KeyOrderTest {
    @Test
    void textOrderOnRawBytesMatchesTextCompareTo() throws Exception {
        List<Text> keys = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 500; i++) {
            keys.add(new Text("k" + random.nextInt(1000) + (i % 3 == 0 ? "é" : "") + "x".repeat(random.nextInt(200))));
        }
        assertRawOrderMatches(new KeyOrder(Text.class.getName(), "").comparator(), keys);
    }

    @Test
    void intWritableOrderOnRawBytesHandlesNegatives() throws Exception {
        List<IntWritable> keys = new ArrayList<>();
        for (int value : new int[] {0, -1, 1, Integer.MIN_VALUE, Integer.MAX_VALUE, -500, 500}) {
            keys.add(new IntWritable(value));
        }
        assertRawOrderMatches(new KeyOrder(IntWritable.class.getName(), "").comparator(), keys);
    }

    @Test
    void rawBytesOrderIsUnsigned() {
        RawComparator<?> bytes = new KeyOrder(MpidConf.BYTES, "").comparator();
        assertTrue(bytes.compare(new byte[] {(byte) 0x80}, 0, 1, new byte[] {0x7F}, 0, 1) > 0);
        assertTrue(bytes.compare(new byte[] {1}, 0, 1, new byte[] {1, 0}, 0, 2) < 0);
    }

    @Test
    void anExplicitComparatorClassWins() {
        KeyOrder order = new KeyOrder(MpidConf.BYTES, BytesComparator.class.getName());
        assertTrue(order.comparator() instanceof BytesComparator);
        assertEquals(order, KeyOrder.fromBytes(order.toBytes()));
    }

    @Test
    void aBadComparatorSettingNamesTheKey() {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> TaskConf.parse(Map.of(MpidConf.COMPARATOR_CLASS, "com.example.NoSuchComparator")));
        assertTrue(missing.getMessage().contains(MpidConf.COMPARATOR_CLASS), missing.getMessage());
        IllegalArgumentException wrongType = assertThrows(IllegalArgumentException.class,
                () -> TaskConf.parse(Map.of(MpidConf.COMPARATOR_CLASS, String.class.getName())));
        assertTrue(wrongType.getMessage().contains("RawComparator"), wrongType.getMessage());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <T extends WritableComparable> void assertRawOrderMatches(RawComparator<?> raw, List<T> keys)
            throws Exception {
        List<byte[]> serialized = new ArrayList<>();
        for (T key : keys) {
            DataOutputBuffer out = new DataOutputBuffer();
            key.write(out);
            serialized.add(Arrays.copyOf(out.getData(), out.getLength()));
        }
        for (int i = 0; i < keys.size(); i++) {
            for (int j = 0; j < keys.size(); j += 7) {
                int expected = Integer.signum(keys.get(i).compareTo(keys.get(j)));
                byte[] a = serialized.get(i);
                byte[] b = serialized.get(j);
                assertEquals(expected, Integer.signum(raw.compare(a, 0, a.length, b, 0, b.length)),
                        keys.get(i) + " vs " + keys.get(j));
            }
        }
    }
}
