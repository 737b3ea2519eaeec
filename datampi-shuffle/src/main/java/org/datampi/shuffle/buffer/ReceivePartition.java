package org.datampi.shuffle.buffer;

import java.util.ArrayList;
import java.util.List;

import org.datampi.shuffle.merge.MemoryRunCursor;
import org.datampi.shuffle.merge.RunCursor;
import org.datampi.shuffle.spill.SpilledRun;

/** What one A task has received so far: sorted runs cached in memory, and sorted runs spilled to disk. */
final class ReceivePartition {
    private final List<byte[]> memoryRuns = new ArrayList<>();
    private final List<SpilledRun> spilledRuns = new ArrayList<>();
    private long memoryBytes;
    private long pairs;

    void addMemoryRun(byte[] run, int pairCount) {
        memoryRuns.add(run);
        memoryBytes += run.length;
        pairs += pairCount;
    }

    long memoryBytes() {
        return memoryBytes;
    }

    long pairs() {
        return pairs;
    }

    List<RunCursor> memoryCursors() {
        return memoryCursors(memoryRuns.size());
    }

    /** How many runs are in memory: a spill takes these, while later ones may arrive. */
    int memoryRunCount() {
        return memoryRuns.size();
    }

    /** Cursors over the first COUNT memory runs. */
    List<RunCursor> memoryCursors(int count) {
        List<RunCursor> cursors = new ArrayList<>(count);
        for (byte[] run : memoryRuns.subList(0, count)) {
            cursors.add(new MemoryRunCursor(run, run.length));
        }
        return cursors;
    }

    /** Replaces the first COUNT memory runs by the spilled run made from them; returns the bytes freed. */
    long replaceMemoryRunsWith(int count, SpilledRun run) {
        List<byte[]> spilled = memoryRuns.subList(0, count);
        long freed = 0;
        for (byte[] memoryRun : spilled) {
            freed += memoryRun.length;
        }
        spilled.clear();
        memoryBytes -= freed;
        spilledRuns.add(run);
        return freed;
    }

    /** Replaces the spilled runs by those a merge left (the same pairs in fewer runs). */
    void replaceSpilledRuns(List<SpilledRun> runs) {
        spilledRuns.clear();
        spilledRuns.addAll(runs);
    }

    List<SpilledRun> spilledRuns() {
        return spilledRuns;
    }

    void clear() {
        memoryRuns.clear();
        memoryBytes = 0;
        spilledRuns.forEach(SpilledRun::delete);
        spilledRuns.clear();
    }
}
