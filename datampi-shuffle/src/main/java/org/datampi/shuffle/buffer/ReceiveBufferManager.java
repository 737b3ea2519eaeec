package org.datampi.shuffle.buffer;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.apache.hadoop.io.RawComparator;
import org.datampi.shuffle.merge.MergingCursor;
import org.datampi.shuffle.merge.RunCursor;
import org.datampi.shuffle.spill.SpillFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receive side of the buffer manager: the sorted runs received for the A tasks this process runs, cached in
 * memory up to a byte budget (the memusedpercent share of the heap). Beyond the budget the partition holding the most
 * memory is merged into one sorted run on disk. An A task then reads a k-way merge of its memory and disk runs.
 *
 * <p>Runs arrive on the progress thread and are read on a task thread once everything for their partition has
 * arrived; in a staged job (a DAG) runs for other partitions may still arrive while one is read. A partition being
 * read (opened and not yet released) is never spilled: its reader holds its runs, so spilling it would free nothing.
 * When only such partitions hold memory, the cache stays over its budget until they are released. The methods are
 * synchronized for visibility and for that interleaving.
 */
public final class ReceiveBufferManager {
    private static final Logger LOG = LoggerFactory.getLogger(ReceiveBufferManager.class);

    private final long budgetBytes;
    private final SpillFiles spillFiles;
    private final Map<Integer, ReceivePartition> partitions = new TreeMap<>();
    /** Partitions opened for reading and not yet released: their runs are in use. */
    private final Set<Integer> reading = new HashSet<>();
    private RawComparator<?> comparator;
    private long memoryBytes;
    private long peakMemoryBytes;
    private long spilledBytes;
    private int spillCount;

    public ReceiveBufferManager(long budgetBytes, SpillFiles spillFiles) {
        if (budgetBytes <= 0) {
            throw new IllegalArgumentException("receive budget must be positive: " + budgetBytes);
        }
        this.budgetBytes = budgetBytes;
        this.spillFiles = requireNonNull(spillFiles, "spillFiles is null");
    }

    /** The key order of the job; must be known before the first run arrives (the O tasks announce it). */
    public synchronized void setComparator(RawComparator<?> comparator) {
        this.comparator = requireNonNull(comparator, "comparator is null");
    }

    /** Caches a sorted run for a partition, spilling when the cache outgrows its budget. */
    public synchronized void addRun(int partition, byte[] run, int pairCount) {
        if (comparator == null) {
            throw new IllegalStateException("A run for partition " + partition + " arrived before the key order");
        }
        partitions.computeIfAbsent(partition, p -> new ReceivePartition()).addMemoryRun(run, pairCount);
        memoryBytes += run.length;
        peakMemoryBytes = Math.max(peakMemoryBytes, memoryBytes);
        while (memoryBytes > budgetBytes && spillLargestPartition()) {
            // Spilled one; the loop checks the budget again.
        }
    }

    /** Spills the partition holding the most memory that nobody reads; false when there is none. */
    private boolean spillLargestPartition() {
        int largest = -1;
        long largestBytes = 0;
        for (Map.Entry<Integer, ReceivePartition> entry : partitions.entrySet()) {
            if (entry.getValue().memoryBytes() > largestBytes && !reading.contains(entry.getKey())) {
                largest = entry.getKey();
                largestBytes = entry.getValue().memoryBytes();
            }
        }
        if (largest < 0) {
            return false;
        }
        ReceivePartition partition = partitions.get(largest);
        try (RunCursor merged = new MergingCursor(partition.memoryCursors(), comparator)) {
            long freed = partition.replaceMemoryRunsWith(spillFiles.write(largest, merged));
            memoryBytes -= freed;
            spilledBytes += freed;
            spillCount++;
            LOG.info("Spilled {} bytes of partition {} ({} spills so far, {} bytes cached, budget {})", freed,
                    largest, spillCount, memoryBytes, budgetBytes);
        }
        return true;
    }

    /** A sorted cursor over everything received for a partition (empty when nothing was). */
    public synchronized RunCursor open(int partition) {
        reading.add(partition);
        ReceivePartition received = partitions.get(partition);
        if (received == null) {
            return new MergingCursor(List.of(), comparatorOrBytes());
        }
        List<RunCursor> runs = new ArrayList<>();
        received.spilledRuns().forEach(run -> runs.add(run.open()));
        runs.addAll(received.memoryCursors());
        return new MergingCursor(runs, comparator);
    }

    /** Frees what a finished A task received, on disk and in memory. */
    public synchronized void release(int partition) {
        reading.remove(partition);
        ReceivePartition received = partitions.remove(partition);
        if (received != null) {
            memoryBytes -= received.memoryBytes();
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

    public synchronized long peakMemoryBytes() {
        return peakMemoryBytes;
    }

    private RawComparator<?> comparatorOrBytes() {
        return comparator != null ? comparator : BytesComparator.INSTANCE;
    }
}
