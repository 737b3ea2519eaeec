package org.datampi.shuffle.buffer;

import static java.util.Objects.requireNonNull;

/**
 * The send partition list of the paper's buffer manager (Fig. 7): one {@link SendPartition} per A task. A partition
 * that cannot take the next pair is handed to the sink, which encodes and queues it, and is then reused. The blocks'
 * memory is reserved with the rank's {@link ShuffleMemory} before a block grows: when the send share is used up, an
 * empty block's arrays are dropped, else the block with the most pairs' bytes is sent early and dropped, so that a
 * task sending to thousands of partitions stays within the share instead of holding a full block for each, and what
 * goes early is as large as it can be. Used by one task thread.
 */
public final class SendPartitionList {
    /** Takes a full (or final) block; must be done with it when it returns, since the block is reused. */
    @FunctionalInterface
    public interface BlockSink {
        void accept(int partition, SendPartition block);
    }

    private final SendPartition[] partitions;
    private final ShuffleMemory memory;
    private final BlockSink sink;
    /** What this list's blocks hold, all of it reserved with the memory. */
    private long heldBytes;

    public SendPartitionList(int partitionCount, int blockSize, ShuffleMemory memory, BlockSink sink) {
        this.memory = requireNonNull(memory, "memory is null");
        this.sink = requireNonNull(sink, "sink is null");
        this.partitions = new SendPartition[partitionCount];
        // Full blocks from the first pair when half the share has room for one per partition (no copies as they grow);
        // the other half for their indexes and growth.
        int firstDataBytes = (int) Math.min(blockSize, memory.sendBudget() / (2L * Math.max(1, partitionCount)));
        for (int i = 0; i < partitionCount; i++) {
            partitions[i] = new SendPartition(blockSize, firstDataBytes);
        }
    }

    public int partitionCount() {
        return partitions.length;
    }

    /** What the list's blocks hold in the heap now. */
    public long heldBytes() {
        return heldBytes;
    }

    public void add(int partition, byte[] key, int keyOffset, int keyLength, byte[] value, int valueOffset,
            int valueLength) {
        SendPartition block = partitions[partition];
        if (!block.hasRoomFor(keyLength, valueLength)) {
            flush(partition);
        }
        if (!block.fits(keyLength, valueLength)) {
            reserveRoom(block, keyLength, valueLength);
        }
        block.append(key, keyOffset, keyLength, value, valueOffset, valueLength);
    }

    /**
     * Reserves what the block needs to take the pair. While the share has no room, another block's arrays are freed
     * ({@link #toFree}); a list that has nothing more to free takes the room anyway.
     */
    private void reserveRoom(SendPartition block, int keyLength, int valueLength) {
        while (true) {
            long growth = block.growthFor(keyLength, valueLength);
            if (growth == 0 || memory.tryReserveSend(growth)) {
                heldBytes += growth;
                return;
            }
            int victim = toFree(block);
            if (victim < 0) {
                memory.reserveSend(growth);
                heldBytes += growth;
                return;
            }
            flush(victim);
            drop(victim);
        }
    }

    /**
     * The block to free for GROWING: one that holds arrays but no pairs (freed without a send), else the one with the
     * most pairs' bytes (this one, possibly: the fewest, largest early sends); -1 when no other block holds memory
     * and this one holds no pairs.
     */
    private int toFree(SendPartition growing) {
        int fullest = -1;
        int most = 0;
        for (int i = 0; i < partitions.length; i++) {
            SendPartition block = partitions[i];
            if (block.isEmpty()) {
                if (block != growing && block.heldBytes() > 0) {
                    return i;
                }
            } else if (block.byteLength() > most) {
                most = block.byteLength();
                fullest = i;
            }
        }
        return fullest;
    }

    /** Hands every non-empty partition to the sink and drops every block: the end of the task's sending. */
    public void flushAll() {
        for (int i = 0; i < partitions.length; i++) {
            flush(i);
            drop(i);
        }
    }

    private void flush(int partition) {
        SendPartition block = partitions[partition];
        if (!block.isEmpty()) {
            sink.accept(partition, block);
            long before = block.heldBytes();
            block.reset();
            release(before - block.heldBytes());
        }
    }

    private void drop(int partition) {
        SendPartition block = partitions[partition];
        long before = block.heldBytes();
        block.release();
        release(before);
    }

    private void release(long bytes) {
        if (bytes > 0) {
            heldBytes -= bytes;
            memory.releaseSend(bytes);
        }
    }
}
