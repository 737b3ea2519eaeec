package org.datampi.shuffle.engine;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Optional;

import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.datampi.shuffle.buffer.BufferPool;
import org.datampi.shuffle.buffer.SendPartition;
import org.datampi.shuffle.codec.BlockCodec;

/**
 * Turns a full send partition into a wire block: pairs sorted by raw key (so that every block arrives as a sorted
 * run and the A side only merges), optionally combined, then compressed into a pooled direct buffer behind a header.
 *
 * <p>Wire block: {@code int partition, int pairCount, int rawLength, int codec ordinal, payload}.
 */
public final class BlockEncoder {
    public static final int HEADER_BYTES = 16;

    private final BlockCodec codec;
    private final RawComparator<?> comparator;
    private final Optional<BlockCombiner> combiner;
    private final BufferPool pool;
    private final DataOutputBuffer combined = new DataOutputBuffer();
    private byte[] sorted = new byte[0];

    public BlockEncoder(BlockCodec codec, RawComparator<?> comparator, Optional<BlockCombiner> combiner,
            BufferPool pool) {
        this.codec = requireNonNull(codec, "codec is null");
        this.comparator = requireNonNull(comparator, "comparator is null");
        this.combiner = requireNonNull(combiner, "combiner is null");
        this.pool = requireNonNull(pool, "pool is null");
    }

    /** The wire size a pool buffer must hold for a block of blockSize bytes of pairs. */
    public static int maxWireBytes(BlockCodec codec, int blockSize) {
        return HEADER_BYTES + codec.maxCompressedLength(blockSize);
    }

    /** Returns a flipped buffer holding the encoded block; the caller returns it to the pool once sent. */
    public ByteBuffer encode(int partition, SendPartition block) {
        int[] order = block.sortedOrder(comparator);
        byte[] pairs;
        int rawLength;
        int pairCount;
        if (combiner.isPresent()) {
            combined.reset();
            try {
                pairCount = combiner.get().combine(block, order, combined);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot combine a block of partition " + partition, e);
            }
            pairs = combined.getData();
            rawLength = combined.getLength();
        } else {
            pairs = copyInOrder(block, order);
            rawLength = block.byteLength();
            pairCount = order.length;
        }
        ByteBuffer buffer = pool.acquire(HEADER_BYTES + codec.maxCompressedLength(rawLength));
        buffer.putInt(partition).putInt(pairCount).putInt(rawLength).putInt(codec.ordinal());
        codec.compress(pairs, rawLength, buffer);
        return buffer.flip();
    }

    /** The block's pairs in order, copied with array copies (stream writes would take a lock per pair). */
    private byte[] copyInOrder(SendPartition block, int[] order) {
        if (sorted.length < block.byteLength()) {
            sorted = new byte[Math.max(block.byteLength(), sorted.length * 2)];
        }
        byte[] data = block.data();
        int at = 0;
        for (int pair : order) {
            int length = block.pairLength(pair);
            System.arraycopy(data, block.pairOffset(pair), sorted, at, length);
            at += length;
        }
        return sorted;
    }
}
