package org.datampi.shuffle.engine;

import java.nio.ByteBuffer;

import org.datampi.shuffle.codec.BlockCodec;

/** A decoded wire block: a sorted run of pairs for one partition, copied out of the receive buffer. */
public record ReceivedBlock(int partition, int pairCount, byte[] pairs) {
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
}
