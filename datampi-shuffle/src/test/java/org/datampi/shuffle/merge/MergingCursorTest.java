package org.datampi.shuffle.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.io.DataOutputBuffer;
import org.datampi.shuffle.buffer.Pairs;
import org.datampi.shuffle.buffer.SendPartition;
import org.datampi.shuffle.pairs.BytesComparator;
import org.datampi.shuffle.spill.SpillFiles;
import org.datampi.shuffle.spill.SpilledRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MergingCursorTest {
    @TempDir
    Path temp;

    @Test
    void mergesMemoryAndSpilledRunsIntoOneSortedRun() {
        List<String> expected = new ArrayList<>();
        List<RunCursor> runs = new ArrayList<>();
        SpillFiles spills = new SpillFiles(temp.resolve("spills"));
        for (int run = 0; run < 6; run++) {
            List<byte[][]> pairs = Pairs.random(100 + run, 500, 4);
            pairs.forEach(pair -> expected.add(Pairs.text(pair)));
            byte[] sorted = sortedRun(pairs);
            if (run % 2 == 0) {
                runs.add(new MemoryRunCursor(sorted, sorted.length));
            } else {
                SpilledRun spilled = spills.write(run, new MemoryRunCursor(sorted, sorted.length));
                assertEquals(500, spilled.pairs());
                runs.add(spilled.open());
            }
        }
        try (MergingCursor merged = new MergingCursor(runs, BytesComparator.INSTANCE)) {
            assertEquals(expected.stream().sorted().toList(), Pairs.drainSorted(merged).stream().sorted().toList());
        }
        spills.close();
    }

    @Test
    void equalKeysComeOutInRunOrder() {
        byte[] first = sortedRun(List.of(new byte[][] {{5}, {1}}, new byte[][] {{7}, {1}}));
        byte[] second = sortedRun(List.<byte[][]>of(new byte[][] {{5}, {2}}));
        MergingCursor merged = new MergingCursor(List.of(new MemoryRunCursor(first, first.length),
                new MemoryRunCursor(second, second.length)), BytesComparator.INSTANCE);
        assertEquals(List.of("05:01", "05:02", "07:01"), Pairs.drainSorted(merged));
        assertFalse(merged.next());
    }

    @Test
    void largeLengthsSurviveTheSpillFileFormat() {
        byte[] key = new byte[70_000];
        key[0] = 1;
        byte[] value = new byte[200];
        byte[] run = sortedRun(List.<byte[][]>of(new byte[][] {key, value}));
        SpilledRun spilled = new SpillFiles(temp).write(0, new MemoryRunCursor(run, run.length));
        try (RunCursor cursor = spilled.open()) {
            assertEquals(List.of(Pairs.text(new byte[][] {key, value})), Pairs.drainSorted(cursor));
        }
    }

    private static byte[] sortedRun(List<byte[][]> pairs) {
        SendPartition block = new SendPartition(1 << 22);
        for (byte[][] pair : pairs) {
            block.append(pair[0], 0, pair[0].length, pair[1], 0, pair[1].length);
        }
        DataOutputBuffer out = new DataOutputBuffer();
        try {
            for (int pair : block.sortedOrder(BytesComparator.INSTANCE)) {
                out.write(block.data(), block.pairOffset(pair), block.pairLength(pair));
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return Arrays.copyOf(out.getData(), out.getLength());
    }
}
