package org.datampi.shuffle.pairs;

import java.io.DataOutput;
import java.io.IOException;

import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;

/**
 * The serialized form of one key-value pair in blocks, in memory and in spill files:
 * {@code vint keyLength, vint valueLength, key bytes, value bytes} (Hadoop's variable-length ints).
 */
public final class PairFormat {
    private PairFormat() {
    }

    public static void write(DataOutput out, byte[] key, int keyOffset, int keyLength, byte[] value, int valueOffset,
            int valueLength) throws IOException {
        WritableUtils.writeVInt(out, keyLength);
        WritableUtils.writeVInt(out, valueLength);
        out.write(key, keyOffset, keyLength);
        out.write(value, valueOffset, valueLength);
    }

    /**
     * Writes the pair into buffer at position, which must have room for {@link #serializedLength} bytes; returns the
     * position after it. The same bytes as {@link #write}, without a stream in between (the O task's hot path).
     */
    public static int write(byte[] buffer, int position, byte[] key, int keyOffset, int keyLength, byte[] value,
            int valueOffset, int valueLength) {
        int at = writeVInt(buffer, position, keyLength);
        at = writeVInt(buffer, at, valueLength);
        System.arraycopy(key, keyOffset, buffer, at, keyLength);
        System.arraycopy(value, valueOffset, buffer, at + keyLength, valueLength);
        return at + keyLength + valueLength;
    }

    /** Hadoop's variable-length encoding of a non-negative int (WritableUtils.writeVInt) into an array. */
    private static int writeVInt(byte[] buffer, int position, int value) {
        if (value <= 127) {
            buffer[position] = (byte) value;
            return position + 1;
        }
        int bytes = 4 - Integer.numberOfLeadingZeros(value) / 8;
        buffer[position] = (byte) (-112 - bytes);
        for (int i = bytes - 1, at = position + 1; i >= 0; i--, at++) {
            buffer[at] = (byte) (value >>> (8 * i));
        }
        return position + 1 + bytes;
    }

    /** The number of bytes {@link #write} produces for a pair of these lengths. */
    public static int serializedLength(int keyLength, int valueLength) {
        return WritableUtils.getVIntSize(keyLength) + WritableUtils.getVIntSize(valueLength) + keyLength + valueLength;
    }

    /** Reads the vint at offset of data. */
    public static int readVInt(byte[] data, int offset) {
        try {
            return WritableComparator.readVInt(data, offset);
        } catch (IOException e) {
            throw new IllegalStateException("Corrupt pair length at offset " + offset, e);
        }
    }

    public static int vIntSize(byte[] data, int offset) {
        return WritableUtils.decodeVIntSize(data[offset]);
    }
}
