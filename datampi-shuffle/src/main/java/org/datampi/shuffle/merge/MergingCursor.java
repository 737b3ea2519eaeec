package org.datampi.shuffle.merge;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.hadoop.io.RawComparator;
import org.datampi.shuffle.pairs.KeyPrefix;

/**
 * A k-way merge of sorted runs into one sorted run, over a tournament (loser) tree: each pair costs one key
 * comparison per tree level, half of what a binary heap's remove-then-insert costs, which matters because an A task
 * merges hundreds of received blocks. Equal keys come out in run order, so the merge is stable with respect to the
 * order in which the runs were given.
 */
public final class MergingCursor implements RunCursor {
    private final RunCursor[] runs;
    private final boolean[] exhausted;
    private final RawComparator<?> comparator;
    /** The current key's prefix of each run, when the comparator has a prefix form (else null). */
    private final KeyPrefix keyPrefix;
    private final long[] prefixes;
    /** tree[node] is the run that lost the match at internal node (1..k-1); leaves are implicit at k..2k-1. */
    private final int[] tree;
    private int winner = -1;
    private boolean started;

    public MergingCursor(List<RunCursor> runs, RawComparator<?> comparator) {
        this.runs = runs.toArray(RunCursor[]::new);
        this.comparator = requireNonNull(comparator, "comparator is null");
        this.exhausted = new boolean[this.runs.length];
        this.tree = new int[Math.max(1, this.runs.length)];
        this.keyPrefix = KeyPrefix.of(comparator).orElse(null);
        this.prefixes = new long[this.runs.length];
        for (int i = 0; i < this.runs.length; i++) {
            advance(i);
        }
        if (this.runs.length > 0) {
            winner = build(1);
        }
    }

    private int build(int node) {
        if (node >= runs.length) {
            return node - runs.length;
        }
        int left = build(2 * node);
        int right = build(2 * node + 1);
        if (precedes(left, right)) {
            tree[node] = right;
            return left;
        }
        tree[node] = left;
        return right;
    }

    @Override
    public boolean next() {
        if (winner < 0) {
            return false;
        }
        if (started) {
            if (!exhausted[winner]) {
                advance(winner);
            }
            replay(winner);
        }
        started = true;
        return !exhausted[winner];
    }

    private void advance(int run) {
        RunCursor cursor = runs[run];
        exhausted[run] = !cursor.next();
        if (keyPrefix != null && !exhausted[run]) {
            prefixes[run] = keyPrefix.prefix(cursor.keyBuffer(), cursor.keyOffset(), cursor.keyLength());
        }
    }

    /** Replays the matches on the path from a leaf to the root after that leaf's run advanced. */
    private void replay(int leaf) {
        int candidate = leaf;
        for (int node = (leaf + runs.length) >>> 1; node >= 1; node >>>= 1) {
            if (precedes(tree[node], candidate)) {
                int loser = candidate;
                candidate = tree[node];
                tree[node] = loser;
            }
        }
        winner = candidate;
    }

    /** Whether run a's current pair comes before run b's: exhausted runs come last, ties go to the earlier run. */
    private boolean precedes(int a, int b) {
        if (exhausted[a]) {
            return false;
        }
        if (exhausted[b]) {
            return true;
        }
        if (keyPrefix != null && prefixes[a] != prefixes[b]) {
            return Long.compareUnsigned(prefixes[a], prefixes[b]) < 0;
        }
        RunCursor x = runs[a];
        RunCursor y = runs[b];
        int order = comparator.compare(x.keyBuffer(), x.keyOffset(), x.keyLength(), y.keyBuffer(), y.keyOffset(),
                y.keyLength());
        return order < 0 || (order == 0 && a < b);
    }

    @Override
    public byte[] keyBuffer() {
        return runs[winner].keyBuffer();
    }

    @Override
    public int keyOffset() {
        return runs[winner].keyOffset();
    }

    @Override
    public int keyLength() {
        return runs[winner].keyLength();
    }

    @Override
    public byte[] valueBuffer() {
        return runs[winner].valueBuffer();
    }

    @Override
    public int valueOffset() {
        return runs[winner].valueOffset();
    }

    @Override
    public int valueLength() {
        return runs[winner].valueLength();
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
}
