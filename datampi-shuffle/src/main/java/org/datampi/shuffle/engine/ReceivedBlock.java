package org.datampi.shuffle.engine;

import java.nio.ByteBuffer;

import org.datampi.shuffle.codec.BlockCodec;

/**
 * A decoded wire block: a sorted run of pairs for one partition, copied out of the receive buffer. Not a value: its
 * bytes are handed on as they are, not copied ({@link #pairs}), so it has no equality but identity.
 */
public final class ReceivedBlock {
    private final int partition;
    private final int pairCount;
    private final byte[] pairs;

    private ReceivedBlock(int partition, int pairCount, byte[] pairs) {
        this.partition = partition;
        this.pairCount = pairCount;
        this.pairs = pairs;
    }

    /** Decodes the block at buffer's position; the buffer can be reused afterwards. */
    public static ReceivedBlock decode(ByteBuffer buffer) {
        int partition = buffer.getInt();
        int pairCount = buffer.getInt();
        int rawLength = buffer.getInt();
        int codecOrdinal = buffer.getInt();
        BlockCodec[] codecs = BlockCodec.values();
        if (codecOrdinal < 0 || codecOrdinal >= codecs.length || rawLength < 0 || pairCount < 0) {
            throw new IllegalStateException("Corrupt block header: partition " + partition + ", codec "
                    + codecOrdinal + ", length " + rawLength);
        }
        byte[] pairs = new byte[rawLength];
        codecs[codecOrdinal].decompress(buffer, buffer.remaining(), pairs, rawLength);
        return new ReceivedBlock(partition, pairCount, pairs);
    }

    public int partition() {
        return partition;
    }

    public int pairCount() {
        return pairCount;
    }

    /** The run's bytes, which whoever takes them owns from then on (the receive buffers keep them as the run). */
    public byte[] pairs() {
        return pairs;
    }
}
