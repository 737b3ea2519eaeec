package org.datampi.shuffle.pairs;

import java.io.Serializable;

import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.WritableComparator;

/** Unsigned lexicographic order of raw bytes: the order of keys sent as plain byte arrays. */
public final class BytesComparator implements RawComparator<byte[]>, KeyPrefix, Serializable {
    public static final BytesComparator INSTANCE = new BytesComparator();
    private static final long serialVersionUID = 1L;

    @Override
    public int compare(byte[] a, int aOffset, int aLength, byte[] b, int bOffset, int bLength) {
        return WritableComparator.compareBytes(a, aOffset, aLength, b, bOffset, bLength);
    }

    @Override
    public int significantStart(byte[] key, int offset, int length) {
        return offset;
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        return compare(a, 0, a.length, b, 0, b.length);
    }
}
