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
        List<RunCursor> cursors = new ArrayList<>(memoryRuns.size());
        for (byte[] run : memoryRuns) {
            cursors.add(new MemoryRunCursor(run, run.length));
        }
        return cursors;
    }

    /** Replaces the memory runs by the spilled run made from them; returns the bytes freed. */
    long replaceMemoryRunsWith(SpilledRun run) {
        long freed = memoryBytes;
        memoryRuns.clear();
        memoryBytes = 0;
        spilledRuns.add(run);
        return freed;
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
