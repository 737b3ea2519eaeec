package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RankLogTest {
    @TempDir
    Path dir;

    @Test
    void theTailIsTheLastWholeLines() throws IOException {
        Path file = dir.resolve("rank-3.log");
        Files.write(file, List.of("one", "two", "three"), StandardCharsets.UTF_8);
        assertEquals(List.of("two", "three"), new RankLog(file).tail(2));
        assertEquals(List.of("one", "two", "three"), new RankLog(file).tail(10));
    }

    @Test
    void aLongLogIsReadFromItsEndWithoutACutLine() throws IOException {
        Path file = dir.resolve("rank-0.log");
        List<String> lines = IntStream.range(0, 10_000).mapToObj(i -> "line " + i + " " + "x".repeat(i % 50)).toList();
        Files.write(file, lines, StandardCharsets.UTF_8);
        List<String> tail = new RankLog(file).tail(3);
        assertEquals(lines.subList(9_997, 10_000), tail);
        List<String> window = new RankLog(file).tail(100_000);
        assertEquals(lines.subList(lines.size() - window.size(), lines.size()), window, "every line shown is whole");
    }

    @Test
    void aHugeLineIsShownCut() throws IOException {
        Path file = dir.resolve("huge.log");
        Files.writeString(file, "before\n" + "x".repeat(40_000) + "\n" + "y".repeat(5_000) + "\nlast\n");
        List<String> tail = new RankLog(file).tail(3);
        assertEquals(List.of("y".repeat(RankLog.MAX_LINE_CHARS) + " ...", "last"), tail,
                "the window holds the huge line's end, cut; whole lines after it, long ones cut");
        Files.writeString(file, "before\n" + "z".repeat(40_000) + "\n");
        assertEquals(List.of("z".repeat(RankLog.MAX_LINE_CHARS) + " ..."), new RankLog(file).tail(3),
                "a window within one line shows that line's end");
    }

    /** Regression: a DAG task's failure leaves the thread interrupted, and the tail was lost. */
    @Test
    void anInterruptedThreadStillReadsTheTail() throws IOException {
        Path file = dir.resolve("rank-1.log");
        Files.write(file, List.of("one", "two"), StandardCharsets.UTF_8);
        Thread.currentThread().interrupt();
        try {
            assertEquals(List.of("one", "two"), new RankLog(file).tail(5));
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aMissingLogHasNoTail() {
        assertEquals(List.of(), new RankLog(dir.resolve("gone.log")).tail(5));
    }
}
