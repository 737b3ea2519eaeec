package org.datampi.shuffle.buffer;

/**
 * The heap memory of one rank's shuffle, and the one place that counts it (after Tez's MergeManager, which owns a
 * task's shuffle memory with reserve and unreserve). Two shares of one budget, the memusedpercent share of the heap:
 * <ul>
 * <li>sending, a quarter: the blocks the rank's tasks fill, one per partition of each edge they send on. A task's
 * {@link SendPartitionList} reserves before it grows a block and releases what it drops; when the share is used up it
 * sends its fullest block early rather than grow (with 2,000 A tasks, 2,000 full blocks of 1 MB would otherwise be
 * 2 GB per task). A list that holds nothing is always granted its one block, so that a pair larger than the share
 * still goes out: the share is exceeded by at most one block per list.</li>
 * <li>receiving, the rest: the sorted runs received for the rank's A tasks, this stage's and later ones'. They are in
 * the heap once received, so their reservation cannot be refused; over the share the {@link ReceiveBufferManager}
 * spills to disk and, while it does, the engine stops taking in data.</li>
 * </ul>
 * Thread-safe: task threads reserve for sending, the progress and spill threads for receiving.
 */
public final class ShuffleMemory {
    /** The share of the budget for send blocks: a quarter. */
    private static final int SEND_SHARE_DIVISOR = 4;

    private final long sendBudget;
    private final long receiveBudget;
    private long sendBytes;
    private long receiveBytes;
    private long peakSendBytes;
    private long peakReceiveBytes;

    /** A budget of BUDGET_BYTES, a quarter for sending and the rest for receiving. */
    public static ShuffleMemory of(long budgetBytes) {
        long send = budgetBytes / SEND_SHARE_DIVISOR;
        return new ShuffleMemory(send, budgetBytes - send);
    }

    public ShuffleMemory(long sendBudget, long receiveBudget) {
        if (sendBudget <= 0 || receiveBudget <= 0) {
            throw new IllegalArgumentException("shuffle memory budgets must be positive: send " + sendBudget
                    + ", receive " + receiveBudget);
        }
        this.sendBudget = sendBudget;
        this.receiveBudget = receiveBudget;
    }

    /** Reserves BYTES of send blocks if the send share has room for them; false (nothing reserved) otherwise. */
    public synchronized boolean tryReserveSend(long bytes) {
        if (sendBytes + bytes > sendBudget) {
            return false;
        }
        reserveSend(bytes);
        return true;
    }

    /** Reserves BYTES of send blocks whatever the share holds: a list's only block. */
    public synchronized void reserveSend(long bytes) {
        sendBytes += checkedAmount(bytes);
        peakSendBytes = Math.max(peakSendBytes, sendBytes);
    }

    public synchronized void releaseSend(long bytes) {
        sendBytes -= checkedAmount(bytes);
    }

    /** Counts BYTES of received runs, already in the heap. */
    public synchronized void reserveReceive(long bytes) {
        receiveBytes += checkedAmount(bytes);
        peakReceiveBytes = Math.max(peakReceiveBytes, receiveBytes);
    }

    public synchronized void releaseReceive(long bytes) {
        receiveBytes -= checkedAmount(bytes);
    }

    /** Whether the received runs in memory are over their share. */
    public synchronized boolean receiveOverBudget() {
        return receiveBytes > receiveBudget;
    }

    public long sendBudget() {
        return sendBudget;
    }

    public long receiveBudget() {
        return receiveBudget;
    }

    public synchronized long sendBytes() {
        return sendBytes;
    }

    public synchronized long receiveBytes() {
        return receiveBytes;
    }

    public synchronized long peakSendBytes() {
        return peakSendBytes;
    }

    public synchronized long peakReceiveBytes() {
        return peakReceiveBytes;
    }

    private static long checkedAmount(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("a negative amount of memory: " + bytes);
        }
        return bytes;
    }

    @Override
    public synchronized String toString() {
        return "shuffle memory: sending " + sendBytes + " of " + sendBudget + " bytes, receiving " + receiveBytes
                + " of " + receiveBudget;
    }
}
