package org.datampi.shuffle.buffer;

import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * Direct buffers for MPI transfers. Buffers of the standard capacity are recycled (allocating direct memory is
 * slow and its release waits for the garbage collector); larger ones, for pairs bigger than a block, are not.
 */
public final class BufferPool {
    private final int standardCapacity;
    private final ArrayBlockingQueue<ByteBuffer> free;

    public BufferPool(int standardCapacity, int maxPooled) {
        this.standardCapacity = standardCapacity;
        this.free = new ArrayBlockingQueue<>(maxPooled);
    }

    public int standardCapacity() {
        return standardCapacity;
    }

    /** A cleared buffer of at least minCapacity bytes. */
    public ByteBuffer acquire(int minCapacity) {
        if (minCapacity > standardCapacity) {
            return ByteBuffer.allocateDirect(minCapacity);
        }
        ByteBuffer buffer = free.poll();
        return buffer == null ? ByteBuffer.allocateDirect(standardCapacity) : buffer.clear();
    }

    public void release(ByteBuffer buffer) {
        if (buffer.capacity() == standardCapacity) {
            free.offer(buffer.clear());
        }
    }
}
