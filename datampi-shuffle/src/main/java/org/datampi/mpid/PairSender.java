package org.datampi.mpid;

/** Sends a task's pairs to partitions of a staged job ({@link StageRuntime#sender}). Not thread-safe. */
public interface PairSender {
    /** Serializes the pair into partition {@code partition}'s block, which is sent when full. */
    void send(int partition, Object key, Object value);

    /** Sends what the blocks still hold; the end of the task's output. Idempotent. */
    void flush();

    /**
     * The serialized bytes of the pairs sent so far, keys and values as the partitions' blocks hold them before they
     * are encoded; a pair sent to several partitions counts once for each.
     */
    long bytes();
}
