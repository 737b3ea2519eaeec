package org.datampi.shuffle.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.hadoop.io.DataOutputBuffer;
import org.datampi.shuffle.merge.MergingCursor;
import org.datampi.shuffle.merge.RunCursor;
import org.datampi.shuffle.pairs.BytesComparator;
import org.datampi.shuffle.spill.SpillFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReceiveBufferManagerTest {
    @TempDir
    Path temp;

    @Test
    void spillsBeyondTheBudgetAndStillMergesEveryPairInOrder() throws Exception {
        SpillFiles spillFiles = new SpillFiles(temp.resolve("rank-0"));
        ShuffleMemory memory = new ShuffleMemory(1, 20_000);
        ReceiveBufferManager buffers = new ReceiveBufferManager(memory, spillFiles, 100);
        buffers.setComparator(BytesComparator.INSTANCE);
        Map<Integer, List<String>> expected = addRandomRuns(buffers, 3, 40, 200);
        buffers.awaitSpills();

        assertTrue(buffers.spillCount() > 0, "a 20 KB budget must spill");
        assertTrue(memory.peakReceiveBytes() <= 20_000 + 10_000, "cache stays near its budget: "
                + memory.peakReceiveBytes());
        assertTrue(memory.receiveBytes() <= 20_000, "once the spills are done the cache is within its budget");
        for (int partition = 0; partition < 3; partition++) {
            try (RunCursor merged = buffers.open(partition)) {
                List<String> read = Pairs.drainSorted(merged);
                assertEquals(expected.get(partition).stream().sorted().toList(), read.stream().sorted().toList());
            }
            assertEquals(expected.get(partition).size(), buffers.pairs(partition));
        }

        buffers.release(0);
        buffers.release(1);
        buffers.release(2);
        try (Stream<Path> left = Files.list(spillFiles.directory())) {
            assertEquals(0, left.count(), "released partitions leave no spill file");
        }
        spillFiles.close();
        assertFalse(Files.exists(spillFiles.directory()));
    }

    @Test
    void withoutPressureNothingSpills() throws Exception {
        ReceiveBufferManager buffers = new ReceiveBufferManager(new ShuffleMemory(1, 1 << 30),
                new SpillFiles(temp.resolve("r")), 100);
        buffers.setComparator(BytesComparator.INSTANCE);
        Map<Integer, List<String>> expected = addRandomRuns(buffers, 2, 10, 100);
        assertEquals(0, buffers.spillCount());
        try (RunCursor merged = buffers.open(1)) {
            assertEquals(expected.get(1).size(), Pairs.drainSorted(merged).size());
        }
        try (RunCursor nothing = buffers.open(7)) {
            assertFalse(nothing.next());
        }
    }

    /**
     * In a staged job runs for later partitions arrive while one is read: the partition being read is never the one
     * spilled (its reader holds its runs), and reads back whole; others spill as before.
     */
    @Test
    void aPartitionBeingReadIsNotSpilled() throws Exception {
        SpillFiles spillFiles = new SpillFiles(temp.resolve("staged"));
        ReceiveBufferManager buffers = new ReceiveBufferManager(new ShuffleMemory(1, 20_000), spillFiles, 100);
        buffers.setComparator(BytesComparator.INSTANCE);
        // Partition 0 about half the budget: as large as partition 1 when the budget first overflows.
        Map<Integer, List<String>> first = addRandomRuns(buffers, 0, 1, 1, 500);
        buffers.awaitSpills();
        assertEquals(0, buffers.spillCount(), "partition 0 fits the budget");
        try (RunCursor reading = buffers.open(0)) {
            Map<Integer, List<String>> later = addRandomRuns(buffers, 1, 1, 40, 100);
            buffers.awaitSpills();
            assertTrue(buffers.spillCount() > 0, "the partition that arrives later still spills");
            try (Stream<Path> spills = Files.list(spillFiles.directory())) {
                assertTrue(spills.noneMatch(file -> file.getFileName().toString().startsWith("partition-0-")),
                        "the partition being read was not spilled");
            }
            assertEquals(first.get(0).stream().sorted().toList(), Pairs.drainSorted(reading).stream().sorted()
                    .toList(), "the partition read while others arrive reads back whole");
            try (RunCursor next = buffers.open(1)) {
                assertEquals(later.get(1).size(), Pairs.drainSorted(next).size());
            }
        }
        buffers.release(0);
        buffers.release(1);
        spillFiles.close();
    }

    /**
     * One partition spilled many times, read with a merge factor of 3: its runs are merged down first, so that never
     * more than 3 spill files are open at once, and every pair reads back in order.
     */
    @Test
    void noMoreSpillFilesAreOpenAtOnceThanTheMergeFactor() throws Exception {
        SpillFiles spillFiles = new SpillFiles(temp.resolve("merged"));
        ReceiveBufferManager buffers = new ReceiveBufferManager(new ShuffleMemory(1, 5_000), spillFiles, 3);
        buffers.setComparator(BytesComparator.INSTANCE);
        Map<Integer, List<String>> expected = addRandomRuns(buffers, 0, 1, 40, 100);
        buffers.awaitSpills();
        assertTrue(buffers.spillCount() > 6, "many spills of the one partition: " + buffers.spillCount());
        try (RunCursor merged = buffers.open(0)) {
            List<String> read = Pairs.drainSorted(merged);
            assertEquals(expected.get(0).stream().sorted().toList(), read.stream().sorted().toList(),
                    "every pair, once (drainSorted checks the key order)");
        }
        assertTrue(buffers.mergePasses() > 0, "the runs were merged down");
        assertTrue(spillFiles.mostOpenAtOnce() <= 3, "spill files open at once: " + spillFiles.mostOpenAtOnce());
        buffers.release(0);
        try (Stream<Path> left = Files.list(spillFiles.directory())) {
            assertEquals(0, left.count(), "the merged runs' inputs and outputs are gone");
        }
        spillFiles.close();
    }

    /**
     * At a rank's end the spill thread is closed, and the spill directory, once removed, is never made again by a
     * late spill (it would lose its owner's mode and lock).
     */
    @Test
    void closeEndsTheSpillThreadAndAClosedDirectoryTakesNoMoreRuns() throws Exception {
        SpillFiles spillFiles = new SpillFiles(temp.resolve("closing"));
        ReceiveBufferManager buffers = new ReceiveBufferManager(new ShuffleMemory(1, 5_000), spillFiles, 100);
        buffers.setComparator(BytesComparator.INSTANCE);
        addRandomRuns(buffers, 0, 2, 20, 100);
        buffers.awaitSpills();
        assertTrue(buffers.spillCount() > 0);
        assertTrue(spillThreadAlive("datampi-spill-closing"), "the spill thread waits for more work");
        buffers.release(0);
        buffers.release(1);
        buffers.close();
        assertFalse(spillThreadAlive("datampi-spill-closing"), "closed, the spill thread has ended");
        spillFiles.close();
        assertThrows(IllegalStateException.class, () -> spillFiles.write(0,
                new MergingCursor(List.of(), BytesComparator.INSTANCE)));
        assertFalse(Files.exists(spillFiles.directory()), "a closed spill directory is not made again");
    }

    private static boolean spillThreadAlive(String name) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name) && t.isAlive());
    }

    /** Adds runs of sorted random pairs round-robin to the partitions; returns the pairs added per partition. */
    private static Map<Integer, List<String>> addRandomRuns(ReceiveBufferManager buffers, int partitions, int runs,
            int pairsPerRun) throws Exception {
        return addRandomRuns(buffers, 0, partitions, runs, pairsPerRun);
    }

    /** The same for partitions FIRST to FIRST + PARTITIONS - 1. */
    private static Map<Integer, List<String>> addRandomRuns(ReceiveBufferManager buffers, int first, int partitions,
            int runs, int pairsPerRun) throws Exception {
        Map<Integer, List<String>> expected = new HashMap<>();
        for (int run = 0; run < runs; run++) {
            int partition = first + run % partitions;
            SendPartition block = new SendPartition(1 << 20);
            for (byte[][] pair : Pairs.random(run, pairsPerRun, 6)) {
                block.append(pair[0], 0, pair[0].length, pair[1], 0, pair[1].length);
                expected.computeIfAbsent(partition, p -> new ArrayList<>()).add(Pairs.text(pair));
            }
            DataOutputBuffer sorted = new DataOutputBuffer();
            for (int pair : block.sortedOrder(BytesComparator.INSTANCE)) {
                sorted.write(block.data(), block.pairOffset(pair), block.pairLength(pair));
            }
            // As the engine does: no data while the cache is over its budget and a spill brings it down.
            while (buffers.receivePaused()) {
                Thread.sleep(1);
            }
            buffers.addRun(partition, Arrays.copyOf(sorted.getData(), sorted.getLength()), pairsPerRun);
        }
        return expected;
    }
}
