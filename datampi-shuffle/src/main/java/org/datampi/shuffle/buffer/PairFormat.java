package org.datampi.shuffle.buffer;

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
