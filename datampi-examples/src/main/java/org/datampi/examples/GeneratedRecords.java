package org.datampi.examples;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Key-value records shaped like Hive's shuffle pairs: keys of 10 to 20 random bytes, values of 20 bytes; skewed, every
 * other key is the same ({@link #HOT_KEY}), as a join or GROUP BY on a key that holds half of all rows. A
 * deterministic function of (seed, task), so that a test or a baseline can regenerate the same records.
 */
public final class GeneratedRecords {
    public static final int MIN_KEY_BYTES = 10;
    public static final int MAX_KEY_BYTES = 20;
    public static final int VALUE_BYTES = 20;
    /** The key of every other record when skewed. */
    private static final byte[] HOT_KEY = "a-hot-join-key".getBytes(StandardCharsets.US_ASCII);

    private final SplittableRandom random;
    private final boolean skewed;
    private final byte[] keyBuffer = new byte[MAX_KEY_BYTES];
    private long generated;

    public GeneratedRecords(long seed, int task) {
        this(seed, task, false);
    }

    public GeneratedRecords(long seed, int task, boolean skewed) {
        this.random = new SplittableRandom(seed * 1_000_003L + task);
        this.skewed = skewed;
    }

    /** Fills the next key into a reused array and returns its length. */
    public int nextKey() {
        if (skewed && generated++ % 2 == 0) {
            System.arraycopy(HOT_KEY, 0, keyBuffer, 0, HOT_KEY.length);
            return HOT_KEY.length;
        }
        int length = MIN_KEY_BYTES + random.nextInt(MAX_KEY_BYTES - MIN_KEY_BYTES + 1);
        for (int i = 0; i < length; i++) {
            keyBuffer[i] = (byte) random.nextInt(256);
        }
        return length;
    }

    public byte[] key() {
        return keyBuffer;
    }

    /** A value derived from the key, so that a receiver can check every pair it gets. */
    public static byte[] valueFor(byte[] key, int keyLength) {
        return valueFor(key, keyLength, VALUE_BYTES);
    }

    /**
     * A value of LENGTH bytes derived from the key: valueFor's VALUE_BYTES, repeated. Repeated by copying, so that
     * large values cost the generator little beside the shuffle that moves them.
     */
    public static byte[] valueFor(byte[] key, int keyLength, int length) {
        byte[] value = new byte[length];
        int head = Math.min(length, VALUE_BYTES);
        for (int i = 0; i < head; i++) {
            value[i] = (byte) (key[i % keyLength] * 31 + i);
        }
        for (int filled = head; filled < length; filled *= 2) {
            System.arraycopy(value, 0, value, filled, Math.min(filled, length - filled));
        }
        return value;
    }
}
