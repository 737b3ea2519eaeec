package org.datampi.shuffle.buffer;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.apache.hadoop.io.RawComparator;
import org.datampi.shuffle.merge.MergingCursor;
import org.datampi.shuffle.merge.RunCursor;
import org.datampi.shuffle.spill.SpillFiles;
import org.datampi.shuffle.spill.SpilledRun;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receive side of the buffer manager: the sorted runs received for the A tasks this process runs, cached in
 * memory within the receive share of the rank's {@link ShuffleMemory}. Beyond it a spill thread merges the partition
 * holding the most memory into one sorted run on disk, and goes on while the cache is over its share; meanwhile
 * {@link #receivePaused} tells the engine to take in no more data, so that memory stays bounded while the engine
 * still sends (the spill used to run on the progress thread and stop all of it). An A task then reads a k-way merge
 * of its memory and disk runs; when a partition has more spilled runs than the merge factor, the smallest are merged
 * into one first, pass after pass (as Hadoop's and Tez's io.sort.factor), so that no more than that many spill files
 * are ever open at once.
 *
 * <p>Threads: runs arrive on the progress thread; the spill thread writes one partition's runs at a time; A task
 * threads open and release partitions once everything for them has arrived, while in a staged job (a DAG) runs for
 * other partitions may still arrive. A partition being read (opened and not yet released) is never spilled: its
 * reader holds its runs, so spilling it would free nothing; when only such partitions hold memory, the cache stays
 * over its share until they are released (and the engine keeps receiving: the reader may be waiting for others that
 * wait for this rank). Opening a partition that is being spilled waits for that spill. The state is guarded by this
 * object's lock, never held while a file is written or merged. A spill that fails fails the next call of the progress
 * thread or of a reader, naming the cause.
 */
public final class ReceiveBufferManager {
    private static final Logger LOG = LoggerFactory.getLogger(ReceiveBufferManager.class);
    private static final int NONE = -1;
    private static final long WAIT_SLICE_MILLIS = 100;

    private final ShuffleMemory memory;
    private final SpillFiles spillFiles;
    private final int mergeFactor;
    private final Map<Integer, ReceivePartition> partitions = new TreeMap<>();
    /** Partitions opened for reading and not yet released: their runs are in use. */
    private final Set<Integer> reading = new HashSet<>();
    private RawComparator<?> comparator;
    /** Whether the spill thread runs. */
    private boolean spilling;
    /** The partition whose runs the spill thread is writing, or NONE. */
    private int spillingPartition = NONE;
    private Throwable spillFailure;
    private long spilledBytes;
    private int spillCount;
    private int mergePasses;

    /**
     * @param mergeFactor at most this many spilled runs of a partition are read at once (2 or more)
     */
    public ReceiveBufferManager(ShuffleMemory memory, SpillFiles spillFiles, int mergeFactor) {
        if (mergeFactor < 2) {
            throw new IllegalArgumentException("merge factor must be at least 2: " + mergeFactor);
        }
        this.memory = requireNonNull(memory, "memory is null");
        this.spillFiles = requireNonNull(spillFiles, "spillFiles is null");
        this.mergeFactor = mergeFactor;
    }

    /** The key order of the job; must be known before the first run arrives (the O tasks announce it). */
    public synchronized void setComparator(RawComparator<?> comparator) {
        this.comparator = requireNonNull(comparator, "comparator is null");
    }

    /** Caches a sorted run for a partition; past the receive share, starts the spill thread. */
    public synchronized void addRun(int partition, byte[] run, int pairCount) {
        checkSpills();
        if (comparator == null) {
            throw new IllegalStateException("A run for partition " + partition + " arrived before the key order");
        }
        partitions.computeIfAbsent(partition, p -> new ReceivePartition()).addMemoryRun(run, pairCount);
        memory.reserveReceive(run.length);
        if (memory.receiveOverBudget() && !spilling && largestSpillable() != NONE) {
            spilling = true;
            Thread spiller = new Thread(this::spillWhileOverBudget, "datampi-spill");
            spiller.setDaemon(true);
            spiller.start();
        }
    }

    /**
     * Whether the engine should take in no more data for now: the cache is over its share and the spill thread is
     * bringing it down. Throws when a spill failed.
     */
    public synchronized boolean receivePaused() {
        checkSpills();
        return spilling && memory.receiveOverBudget();
    }

    /** The spill thread: one partition after the other, the one holding the most, while the cache is over budget. */
    private void spillWhileOverBudget() {
        try {
            while (true) {
                int partition;
                ReceivePartition received;
                int runs;
                List<RunCursor> cursors;
                RawComparator<?> order;
                synchronized (this) {
                    partition = memory.receiveOverBudget() ? largestSpillable() : NONE;
                    if (partition == NONE) {
                        spilling = false;
                        notifyAll();
                        return;
                    }
                    received = partitions.get(partition);
                    runs = received.memoryRunCount();
                    cursors = received.memoryCursors(runs);
                    order = comparator;
                    spillingPartition = partition;
                }
                SpilledRun spilled;
                try (RunCursor merged = new MergingCursor(cursors, order)) {
                    spilled = spillFiles.write(partition, merged);
                }
                synchronized (this) {
                    spillingPartition = NONE;
                    notifyAll();
                    if (partitions.get(partition) != received) {
                        // Released meanwhile (a failed task's cleanup), its memory with it.
                        spilled.delete();
                        continue;
                    }
                    long freed = received.replaceMemoryRunsWith(runs, spilled);
                    memory.releaseReceive(freed);
                    spilledBytes += freed;
                    spillCount++;
                    LOG.info("Spilled {} bytes of partition {} ({} spills so far; {})", freed, partition,
                            spillCount, memory);
                }
            }
        } catch (Throwable t) {
            synchronized (this) {
                spillFailure = t;
                spilling = false;
                spillingPartition = NONE;
                notifyAll();
            }
        }
    }

    /** The partition holding the most memory that nobody reads; NONE when there is none. */
    private int largestSpillable() {
        int largest = NONE;
        long largestBytes = 0;
        for (Map.Entry<Integer, ReceivePartition> entry : partitions.entrySet()) {
            if (entry.getValue().memoryBytes() > largestBytes && !reading.contains(entry.getKey())) {
                largest = entry.getKey();
                largestBytes = entry.getValue().memoryBytes();
            }
        }
        return largest;
    }

    private void checkSpills() {
        if (spillFailure != null) {
            throw new IllegalStateException("Cannot spill received data to " + spillFiles.directory() + ": "
                    + spillFailure, spillFailure);
        }
    }

    /**
     * A sorted cursor over everything received for a partition (empty when nothing was), once everything for it has
     * arrived: its spilled runs merged down to the merge factor first.
     */
    public RunCursor open(int partition) {
        ReceivePartition received;
        List<SpilledRun> spilled;
        List<RunCursor> inMemory;
        RawComparator<?> order;
        synchronized (this) {
            reading.add(partition);
            awaitNoSpillOf(partition);
            received = partitions.get(partition);
            if (received == null) {
                return new MergingCursor(List.of(), comparatorOrBytes());
            }
            spilled = List.copyOf(received.spilledRuns());
            inMemory = received.memoryCursors();
            order = comparator;
        }
        // Being read, the partition is the spill thread's no more: its runs change only here.
        List<SpilledRun> merged = mergeDown(partition, spilled, order);
        synchronized (this) {
            received.replaceSpilledRuns(merged);
        }
        List<RunCursor> runs = new ArrayList<>();
        try {
            for (SpilledRun run : merged) {
                runs.add(spillFiles.open(run));
            }
        } catch (RuntimeException e) {
            runs.forEach(RunCursor::close);
            throw e;
        }
        runs.addAll(inMemory);
        return new MergingCursor(runs, order);
    }

    private void awaitNoSpillOf(int partition) {
        while (spillingPartition == partition) {
            checkSpills();
            try {
                wait(WAIT_SLICE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while partition " + partition + " was spilled", e);
            }
        }
        checkSpills();
    }

    /**
     * Merges the smallest of RUNS into one while there are more than the merge factor, each pass as wide as it may be
     * and no wider than the last one needs; returns the runs left, at most the merge factor.
     */
    private List<SpilledRun> mergeDown(int partition, List<SpilledRun> runs, RawComparator<?> order) {
        List<SpilledRun> left = new ArrayList<>(runs);
        while (left.size() > mergeFactor) {
            left.sort(Comparator.comparingLong(SpilledRun::bytes));
            List<SpilledRun> smallest = left.subList(0, Math.min(mergeFactor, left.size() - mergeFactor + 1));
            List<RunCursor> cursors = new ArrayList<>();
            SpilledRun merged;
            try {
                for (SpilledRun run : smallest) {
                    cursors.add(spillFiles.open(run));
                }
            } catch (RuntimeException e) {
                cursors.forEach(RunCursor::close);
                throw e;
            }
            try (RunCursor cursor = new MergingCursor(cursors, order)) {
                merged = spillFiles.write(partition, cursor);
            }
            smallest.forEach(SpilledRun::delete);
            smallest.clear();
            left.add(merged);
            synchronized (this) {
                mergePasses++;
            }
        }
        return left;
    }

    /** Frees what a finished A task received, on disk and in memory. */
    public synchronized void release(int partition) {
        reading.remove(partition);
        ReceivePartition received = partitions.remove(partition);
        if (received != null) {
            memory.releaseReceive(received.memoryBytes());
            received.clear();
        }
    }

    public synchronized long pairs(int partition) {
        ReceivePartition received = partitions.get(partition);
        return received == null ? 0 : received.pairs();
    }

    public synchronized int spillCount() {
        return spillCount;
    }

    public synchronized long spilledBytes() {
        return spilledBytes;
    }

    /** How many merges of spilled runs were needed to keep the open runs within the merge factor. */
    public synchronized int mergePasses() {
        return mergePasses;
    }

    /** Waits until no spill runs (tests, and a rank's end): then the cache is within its share or only read runs. */
    public synchronized void awaitSpills() throws InterruptedException {
        while (spilling) {
            wait(WAIT_SLICE_MILLIS);
        }
        checkSpills();
    }

    private RawComparator<?> comparatorOrBytes() {
        return comparator != null ? comparator : BytesComparator.INSTANCE;
    }
}
