package org.datampi.shuffle.merge;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.PriorityQueue;

import org.apache.hadoop.io.RawComparator;

/**
 * A k-way merge of sorted runs into one sorted run. Equal keys come out in run order, so the merge is stable
 * with respect to the order in which the runs were given.
 */
public final class MergingCursor implements RunCursor {
    private final List<RunCursor> runs;
    private final PriorityQueue<Head> heap;
    private Head current;

    public MergingCursor(List<RunCursor> runs, RawComparator<?> comparator) {
        this.runs = List.copyOf(runs);
        requireNonNull(comparator, "comparator is null");
        this.heap = new PriorityQueue<>(Math.max(1, runs.size()), (a, b) -> {
            int order = comparator.compare(a.cursor.keyBuffer(), a.cursor.keyOffset(), a.cursor.keyLength(),
                    b.cursor.keyBuffer(), b.cursor.keyOffset(), b.cursor.keyLength());
            return order != 0 ? order : Integer.compare(a.index, b.index);
        });
        for (int i = 0; i < this.runs.size(); i++) {
            RunCursor cursor = this.runs.get(i);
            if (cursor.next()) {
                heap.add(new Head(cursor, i));
            }
        }
    }

    @Override
    public boolean next() {
        if (current != null && current.cursor.next()) {
            heap.add(current);
        }
        current = heap.poll();
        return current != null;
    }

    @Override
    public byte[] keyBuffer() {
        return current.cursor.keyBuffer();
    }

    @Override
    public int keyOffset() {
        return current.cursor.keyOffset();
    }

    @Override
    public int keyLength() {
        return current.cursor.keyLength();
    }

    @Override
    public byte[] valueBuffer() {
        return current.cursor.valueBuffer();
    }

    @Override
    public int valueOffset() {
        return current.cursor.valueOffset();
    }

    @Override
    public int valueLength() {
        return current.cursor.valueLength();
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        for (RunCursor run : runs) {
            try {
                run.close();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private record Head(RunCursor cursor, int index) {
    }
}
