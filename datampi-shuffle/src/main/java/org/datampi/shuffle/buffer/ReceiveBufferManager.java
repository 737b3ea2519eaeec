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
import org.datampi.shuffle.pairs.BytesComparator;
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
 * <p>Threads: runs arrive on the progress thread; the spill thread (one per manager, started at the first spill,
 * ended by {@link #close}) writes one partition's runs at a time; A task threads open and release partitions once
 * everything for them has arrived, while in a staged job (a DAG) runs for other partitions may still arrive. A
 * partition being read (opened and not yet released) is never spilled: its reader holds its runs, so spilling it would
 * free nothing; when only such partitions hold memory, the cache stays over its share until they are released (and
 * the engine keeps receiving: the reader may be waiting for others that wait for this rank). Opening or releasing a
 * partition that is being spilled waits for that spill. The state is guarded by this object's lock, never held while
 * a file is written, merged or deleted. A spill that fails fails the next call of the progress thread or of a reader,
 * naming the cause.
 */
public final class ReceiveBufferManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReceiveBufferManager.class);
    private static final int NONE = -1;
    private static final long WAIT_SLICE_MILLIS = 100;
    /** How long {@link #close} waits for a spill being written. */
    private static final long CLOSE_WAIT_MILLIS = 60_000;

    private final ShuffleMemory memory;
    private final SpillFiles spillFiles;
    private final int mergeFactor;
    private final Map<Integer, ReceivePartition> partitions = new TreeMap<>();
    /** Partitions opened for reading and not yet released: their runs are in use. */
    private final Set<Integer> reading = new HashSet<>();
    private RawComparator<?> comparator;
    private Thread spiller;
    /** Whether the spill thread has work: from the run that took the cache over its share until it is back. */
    private boolean spilling;
    /** The partition whose runs the spill thread is writing, or NONE. */
    private int spillingPartition = NONE;
    private boolean closed;
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

    /** Caches a sorted run for a partition; past the receive share, sets the spill thread to work. */
    public synchronized void addRun(int partition, byte[] run, int pairCount) {
        checkSpills();
        if (closed) {
            throw new IllegalStateException("A run for partition " + partition + " arrived after the shuffle closed");
        }
        if (comparator == null) {
            throw new IllegalStateException("A run for partition " + partition + " arrived before the key order");
        }
        partitions.computeIfAbsent(partition, p -> new ReceivePartition()).addMemoryRun(run, pairCount);
        memory.reserveReceive(run.length);
        if (!spilling && memory.receiveOverBudget() && largestSpillable() != NONE) {
            if (spiller == null) {
                Thread thread = new Thread(this::runSpills, "datampi-spill-" + spillFiles.directory().getFileName());
                thread.setDaemon(true);
                thread.start();
                spiller = thread;
            }
            spilling = true;
            notifyAll();
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

    /** The spill thread: while the cache is over its share, spills the partition holding the most; else waits. */
    private void runSpills() {
        try {
            while (true) {
                int partition;
                ReceivePartition received;
                int runs;
                List<RunCursor> cursors;
                RawComparator<?> order;
                synchronized (this) {
                    partition = nextToSpill();
                    while (partition == NONE && !closed) {
                        spilling = false;
                        notifyAll();
                        wait();
                        partition = nextToSpill();
                    }
                    if (closed) {
                        return;
                    }
                    spilling = true;
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
                long freed;
                synchronized (this) {
                    spillingPartition = NONE;
                    notifyAll();
                    if (partitions.get(partition) != received) {
                        // Released meanwhile, its memory with it (release waits for a spill of its partition, so
                        // this is a rank's end); the run is not needed.
                        freed = -1;
                    } else {
                        freed = received.replaceMemoryRunsWith(runs, spilled);
                        memory.releaseReceive(freed);
                        spilledBytes += freed;
                        spillCount++;
                    }
                }
                if (freed < 0) {
                    spilled.delete();
                } else {
                    LOG.info("Spilled {} bytes of partition {} ({} spills so far; {})", freed, partition,
                            spillCount(), memory);
                }
            }
        } catch (Throwable t) {
            synchronized (this) {
                spillFailure = t;
                spilling = false;
                spillingPartition = NONE;
                notifyAll();
            }
        } finally {
            synchronized (this) {
                spilling = false;
                notifyAll();
            }
        }
    }

    /** The partition to spill now: the largest that nobody reads while the cache is over its share; else NONE. */
    private int nextToSpill() {
        return !closed && memory.receiveOverBudget() ? largestSpillable() : NONE;
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
        List<SpilledRun> merged = mergeDown(partition, received, spilled, order);
        List<RunCursor> runs = openAll(merged);
        runs.addAll(inMemory);
        return merge(runs, order);
    }

    /** Cursors over RUNS; those opened are closed should one fail to open. */
    private List<RunCursor> openAll(List<SpilledRun> runs) {
        List<RunCursor> cursors = new ArrayList<>();
        try {
            for (SpilledRun run : runs) {
                cursors.add(spillFiles.open(run));
            }
        } catch (RuntimeException e) {
            cursors.forEach(RunCursor::close);
            throw e;
        }
        return cursors;
    }

    /** A merge of RUNS, which are closed should the merge fail to start (it reads each run's first pair). */
    private static MergingCursor merge(List<RunCursor> runs, RawComparator<?> order) {
        try {
            return new MergingCursor(runs, order);
        } catch (RuntimeException e) {
            runs.forEach(RunCursor::close);
            throw e;
        }
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
     * and no wider than the last one needs, recording each pass's result with the partition as it is made (so that
     * its release deletes whatever a failed pass left); returns the runs left, at most the merge factor.
     */
    private List<SpilledRun> mergeDown(int partition, ReceivePartition received, List<SpilledRun> runs,
            RawComparator<?> order) {
        List<SpilledRun> left = new ArrayList<>(runs);
        while (left.size() > mergeFactor) {
            left.sort(Comparator.comparingLong(SpilledRun::bytes));
            List<SpilledRun> smallest = left.subList(0, Math.min(mergeFactor, left.size() - mergeFactor + 1));
            SpilledRun merged;
            try (RunCursor cursor = merge(openAll(smallest), order)) {
                merged = spillFiles.write(partition, cursor);
            }
            List<SpilledRun> inputs = List.copyOf(smallest);
            smallest.clear();
            left.add(merged);
            synchronized (this) {
                received.replaceSpilledRuns(left);
                mergePasses++;
            }
            inputs.forEach(SpilledRun::delete);
        }
        return left;
    }

    /** Frees what a finished A task received, on disk and in memory (once a spill of it being written is done). */
    public void release(int partition) {
        ReceivePartition received;
        synchronized (this) {
            awaitNoSpillOf(partition);
            reading.remove(partition);
            received = partitions.remove(partition);
            if (received == null) {
                return;
            }
            memory.releaseReceive(received.memoryBytes());
        }
        received.clear();
    }

    /**
     * Stops the spill thread, after the spill it is writing (at most a minute): the rank is through its shuffle, or
     * failing. Idempotent.
     */
    @Override
    public void close() {
        Thread thread;
        synchronized (this) {
            closed = true;
            notifyAll();
            thread = spiller;
        }
        if (thread == null) {
            return;
        }
        try {
            thread.join(CLOSE_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warn("The spill thread is still writing to {} after {} ms", spillFiles.directory(), CLOSE_WAIT_MILLIS);
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

    /** Waits until the spill thread has nothing to do: the cache is within its share, or holds only runs being read. */
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
