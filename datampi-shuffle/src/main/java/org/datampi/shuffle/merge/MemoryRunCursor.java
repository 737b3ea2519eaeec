package org.datampi.shuffle.merge;

import static java.util.Objects.requireNonNull;

import org.datampi.shuffle.pairs.PairFormat;

/** A cursor over a run held in a byte array (a received block). */
public final class MemoryRunCursor implements RunCursor {
    private final byte[] data;
    private final int end;
    private int position;
    private int keyOffset;
    private int keyLength;
    private int valueLength;

    public MemoryRunCursor(byte[] data, int length) {
        this.data = requireNonNull(data, "data is null");
        this.end = length;
    }

    @Override
    public boolean next() {
        if (position >= end) {
            return false;
        }
        keyLength = PairFormat.readVInt(data, position);
        position += PairFormat.vIntSize(data, position);
        valueLength = PairFormat.readVInt(data, position);
        position += PairFormat.vIntSize(data, position);
        keyOffset = position;
        position += keyLength + valueLength;
        return true;
    }

    @Override
    public byte[] keyBuffer() {
        return data;
    }

    @Override
    public int keyOffset() {
        return keyOffset;
    }

    @Override
    public int keyLength() {
        return keyLength;
    }

    @Override
    public byte[] valueBuffer() {
        return data;
    }

    @Override
    public int valueOffset() {
        return keyOffset + keyLength;
    }

    @Override
    public int valueLength() {
        return valueLength;
    }

    @Override
    public void close() {
    }
}
