package org.datampi.shuffle.buffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import org.datampi.shuffle.merge.RunCursor;
import org.datampi.shuffle.pairs.BytesComparator;
import org.datampi.shuffle.pairs.PairFormat;

/** Test helpers: random raw pairs, and pairs read back from cursors as comparable strings. */
public final class Pairs {
    private static final HexFormat HEX = HexFormat.of();

    private Pairs() {
    }

    public static List<byte[][]> random(long seed, int count, int maxKeyBytes) {
        SplittableRandom random = new SplittableRandom(seed);
        List<byte[][]> pairs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] key = new byte[1 + random.nextInt(maxKeyBytes)];
            byte[] value = new byte[random.nextInt(30)];
            for (int j = 0; j < key.length; j++) {
                key[j] = (byte) random.nextInt(256);
            }
            for (int j = 0; j < value.length; j++) {
                value[j] = (byte) random.nextInt(256);
            }
            pairs.add(new byte[][] {key, value});
        }
        return pairs;
    }

    /** "hexkey:hexvalue", whose string order is the unsigned byte order of the keys when keys have equal length. */
    public static String text(byte[] key, int keyOffset, int keyLength, byte[] value, int valueOffset,
            int valueLength) {
        return HEX.formatHex(key, keyOffset, keyOffset + keyLength) + ":"
                + HEX.formatHex(value, valueOffset, valueOffset + valueLength);
    }

    public static String text(byte[][] pair) {
        return text(pair[0], 0, pair[0].length, pair[1], 0, pair[1].length);
    }

    /** Drains a cursor; also checks that its keys never decrease in unsigned byte order. */
    public static List<String> drainSorted(RunCursor cursor) {
        List<String> pairs = new ArrayList<>();
        byte[] previous = null;
        while (cursor.next()) {
            byte[] key = Arrays.copyOfRange(cursor.keyBuffer(), cursor.keyOffset(),
                    cursor.keyOffset() + cursor.keyLength());
            if (previous != null && BytesComparator.INSTANCE.compare(previous, key) > 0) {
                throw new AssertionError("keys out of order: " + HEX.formatHex(previous) + " > " + HEX.formatHex(key));
            }
            previous = key;
            pairs.add(text(cursor.keyBuffer(), cursor.keyOffset(), cursor.keyLength(), cursor.valueBuffer(),
                    cursor.valueOffset(), cursor.valueLength()));
        }
        return pairs;
    }

    /** The pairs in the spill format (a run, as SpillFiles writes it), in the order given. */
    public static byte[] serialized(List<byte[][]> pairs) {
        int size = pairs.stream().mapToInt(pair -> PairFormat.serializedLength(pair[0].length, pair[1].length)).sum();
        byte[] run = new byte[size];
        int at = 0;
        for (byte[][] pair : pairs) {
            at = PairFormat.write(run, at, pair[0], 0, pair[0].length, pair[1], 0, pair[1].length);
        }
        return run;
    }
}
