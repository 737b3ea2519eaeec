package org.datampi.shuffle.buffer;

import static java.util.Objects.requireNonNull;

/**
 * The send partition list of the paper's buffer manager (Fig. 7): one {@link SendPartition} per A task. A partition
 * that cannot take the next pair is handed to the sink, which encodes and queues it, and is then reused.
 */
public final class SendPartitionList {
    /** Takes a full (or final) block; must be done with it when it returns, since the block is reused. */
    @FunctionalInterface
    public interface BlockSink {
        void accept(int partition, SendPartition block);
    }

    private final SendPartition[] partitions;
    private final BlockSink sink;

    public SendPartitionList(int partitionCount, int blockSize, BlockSink sink) {
        this.sink = requireNonNull(sink, "sink is null");
        this.partitions = new SendPartition[partitionCount];
        for (int i = 0; i < partitionCount; i++) {
            partitions[i] = new SendPartition(blockSize);
        }
    }

    public int partitionCount() {
        return partitions.length;
    }

    public void add(int partition, byte[] key, int keyOffset, int keyLength, byte[] value, int valueOffset,
            int valueLength) {
        SendPartition block = partitions[partition];
        if (!block.hasRoomFor(keyLength, valueLength)) {
            flush(partition);
        }
        block.append(key, keyOffset, keyLength, value, valueOffset, valueLength);
    }

    /** Hands every non-empty partition to the sink: the end of an O task. */
    public void flushAll() {
        for (int i = 0; i < partitions.length; i++) {
            flush(i);
        }
    }

    private void flush(int partition) {
        SendPartition block = partitions[partition];
        if (!block.isEmpty()) {
            sink.accept(partition, block);
            block.reset();
        }
    }
}
