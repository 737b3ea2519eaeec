package org.datampi.shuffle.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.datampi.shuffle.buffer.Pairs;
import org.datampi.shuffle.pairs.PairFormat;
import org.datampi.shuffle.spill.SpillFiles;
import org.datampi.shuffle.spill.SpilledRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spill files written by SpillFiles in pieces and read back by FileRunCursor, pairs of every size across its reads. */
class FileRunCursorTest {
    @TempDir
    Path temp;

    @Test
    void pairsOfEverySizeComeBackInOrder() {
        List<byte[][]> pairs = new ArrayList<>(Pairs.random(7, 3_000, 40));
        // Larger than the reader's array (64 KB) and than the writer's (256 KB), between runs of small pairs.
        pairs.add(1_000, new byte[][] {filled(70_000, 3), filled(5, 4)});
        pairs.add(2_000, new byte[][] {filled(10, 5), filled(300_000, 6)});
        pairs.addAll(Pairs.random(8, 3_000, 40));
        byte[] run = Pairs.serialized(pairs);

        SpilledRun spilled = new SpillFiles(temp).write(0, new MemoryRunCursor(run, run.length));
        assertEquals(pairs.size(), spilled.pairs());
        assertEquals(run.length, spilled.bytes());
        List<String> read = new ArrayList<>();
        try (RunCursor cursor = spilled.open()) {
            while (cursor.next()) {
                read.add(Pairs.text(cursor.keyBuffer(), cursor.keyOffset(), cursor.keyLength(), cursor.valueBuffer(),
                        cursor.valueOffset(), cursor.valueLength()));
            }
            assertFalse(cursor.next());
        }
        assertEquals(pairs.stream().map(Pairs::text).toList(), read);
    }

    @Test
    void pairHeadersAcrossTheReadArraysEndAndATinyLastPairAreRead() throws Exception {
        // A first pair that ends a few bytes before or after 64 KB puts the next pair's two-byte lengths across the
        // end of the reader's first read; the last pair is shorter than the longest header.
        for (int end = 65_530; end <= 65_540; end++) {
            List<byte[][]> pairs = new ArrayList<>();
            pairs.add(new byte[][] {filled(1, 1), filled(end - 4 - 1, 2)});
            pairs.add(new byte[][] {filled(200, 3), filled(300, 4)});
            pairs.add(new byte[][] {filled(1, 5), filled(0, 0)});
            assertEquals(end, PairFormat.serializedLength(1, end - 5));
            assertEquals(pairs.stream().map(Pairs::text).toList(), read(write("edge-" + end, Pairs.serialized(pairs))));
        }
    }

    @Test
    void anEmptyFileHasNoPairs() throws Exception {
        assertEquals(List.of(), read(write("empty", new byte[0])));
    }

    @Test
    void aLengthLongerThanAnIntsIsCorrupt() throws Exception {
        // -120: a vint of 9 bytes (a long's 8 after it), which no pair length is.
        Path file = write("long-length", new byte[] {-120, 0, 0, 0, 0, 0, 0, 0, 1, 1, 7});
        try (FileRunCursor cursor = new FileRunCursor(file)) {
            UncheckedIOException error = assertThrows(UncheckedIOException.class, cursor::next);
            assertEquals("Spill file " + file + " is corrupt: a length of 9 bytes", error.getCause().getMessage());
        }
    }

    @Test
    void aFileCutInsideAPairsLengthsIsAnError() throws Exception {
        byte[] run = Pairs.serialized(List.<byte[][]>of(new byte[][] {filled(3, 1), filled(3, 2)},
                new byte[][] {filled(300, 3), filled(3, 4)}));
        // The first pair (8 bytes) and the first byte of the second one's three-byte key length.
        Path file = write("cut-header", Arrays.copyOf(run, 9));
        try (FileRunCursor cursor = new FileRunCursor(file)) {
            assertTrue(cursor.next());
            assertThrows(UncheckedIOException.class, cursor::next);
        }
    }

    @Test
    void aFileThatEndsInsideAPairIsAnErrorNamingIt() throws Exception {
        byte[] run = Pairs.serialized(List.<byte[][]>of(new byte[][] {filled(100, 1), filled(100, 2)},
                new byte[][] {filled(100, 3), filled(100, 4)}));
        Path file = temp.resolve("cut.spill");
        Files.write(file, Arrays.copyOf(run, run.length - 10));
        try (FileRunCursor cursor = new FileRunCursor(file)) {
            assertTrue(cursor.next());
            UncheckedIOException error = assertThrows(UncheckedIOException.class, cursor::next);
            assertEquals("Spill file " + file + " ends inside a pair", error.getCause().getMessage());
        }
    }

    private Path write(String name, byte[] bytes) throws Exception {
        Path file = temp.resolve(name + ".spill");
        Files.write(file, bytes);
        return file;
    }

    private static List<String> read(Path file) {
        List<String> read = new ArrayList<>();
        try (FileRunCursor cursor = new FileRunCursor(file)) {
            while (cursor.next()) {
                read.add(Pairs.text(cursor.keyBuffer(), cursor.keyOffset(), cursor.keyLength(), cursor.valueBuffer(),
                        cursor.valueOffset(), cursor.valueLength()));
            }
            assertFalse(cursor.next());
        }
        return read;
    }

    private static byte[] filled(int length, int value) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte) value);
        return bytes;
    }
}
