package org.datampi.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.datampi.examples.GeneratedRecords;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A total sort of raw byte pairs over real mpidrun jobs, checked against a sort of the same records in this JVM. With a
 * tiny memory share (0.002 of a 256 MB heap: the shuffle moves some 30 times its receive budget) the ranks spill, and
 * with a merge factor of 4 merge their spilled runs down before reading; skewed, every other key is the same, so that
 * one A task receives half of all pairs. The ranks' own accounts of their memory show it stayed within its budget.
 */
class TotalSortIT {
    private static final int RECORDS_PER_TASK = 60_000;
    private static final int BLOCK_SIZE = 65_536;
    private static final Pattern MEMORY = Pattern.compile("at most (\\d+) spill files open at once, peak send blocks "
            + "(\\d+) of (\\d+) bytes, peak receive cache (\\d+) of (\\d+) bytes");

    @TempDir
    Path temp;

    @ParameterizedTest(name = "{0}: {1} processes, {2} O tasks, {3} A tasks, memusedpercent {4}, {5}, {6}")
    @CsvSource({
        "openmpi, 2, 5, 3, 0.4, none, uniform",
        "openmpi, 4, 6, 7, 0.4, lz4, uniform",
        "openmpi, 2, 4, 3, 0.002, none, skewed",
        "mpich, 2, 5, 3, 0.4, zstd, uniform",
        "mpich, 4, 6, 7, 0.4, none, uniform",
        "mpich, 2, 4, 3, 0.002, lz4, uniform"})
    void partsConcatenateToTheSortedRecords(String mpi, int processes, int oTasks, int aTasks, String memUsedPercent,
            String compression, String keys) throws Exception {
        Path out = temp.resolve("out");
        Path spillDir = Files.createDirectories(temp.resolve("spill"));
        long seed = 3;
        boolean tinyMemory = Double.parseDouble(memUsedPercent) < 0.01;
        int mergeFactor = tinyMemory ? 4 : 100;
        Mpidrun.Result result = Mpidrun.run(Duration.ofMinutes(3), List.of("-mode", "COM", "-O", "" + oTasks,
                "-A", "" + aTasks, "-np", "" + processes, "--oversubscribe", "--mpi", mpi, "--heap", "256m",
                "-D", "mpid.memusedpercent=" + memUsedPercent, "-D", "mpid.compression=" + compression,
                "-D", "mpid.local.dir=" + spillDir, "-D", "mpid.block.size=" + BLOCK_SIZE,
                "-D", "mpid.merge.factor=" + mergeFactor,
                "-jar", Mpidrun.jar("datampi-examples").toString(), "org.datampi.examples.TotalSort", out.toString(),
                "" + RECORDS_PER_TASK, "" + seed, keys)).assertSucceeded();

        HexFormat hex = HexFormat.of();
        List<String> expected = new ArrayList<>();
        for (int task = 0; task < oTasks; task++) {
            GeneratedRecords records = new GeneratedRecords(seed, task, keys.equals("skewed"));
            for (int i = 0; i < RECORDS_PER_TASK; i++) {
                int length = records.nextKey();
                byte[] key = Arrays.copyOf(records.key(), length);
                expected.add(hex.formatHex(key) + "\t" + hex.formatHex(GeneratedRecords.valueFor(key, length)));
            }
        }
        expected.sort(null);
        List<String> actual = new ArrayList<>();
        for (int a = 0; a < aTasks; a++) {
            actual.addAll(Files.readAllLines(out.resolve("part-" + a)));
        }
        assertEquals(expected.size(), actual.size());
        assertEquals(expected, actual);

        String logs = result.rankLogs();
        assertEquals(tinyMemory, logs.contains("Spilled"), "a tiny memory share must spill");
        Matcher memory = MEMORY.matcher(logs);
        int ranks = 0;
        while (memory.find()) {
            ranks++;
            assertTrue(Integer.parseInt(memory.group(1)) <= mergeFactor, "spill files open at once: " + memory.group());
            // Beyond its share, a send list holds at most one block, a receive cache what was posted before it paused.
            assertTrue(Long.parseLong(memory.group(2)) <= Long.parseLong(memory.group(3)) + 2 * BLOCK_SIZE,
                    "send blocks within their share: " + memory.group());
            assertTrue(Long.parseLong(memory.group(4)) <= Long.parseLong(memory.group(5)) + 3 * BLOCK_SIZE,
                    "received runs within their share: " + memory.group());
        }
        assertEquals(processes, ranks, "every rank accounts for its memory");
        if (tinyMemory) {
            assertTrue(logs.matches("(?s).* [1-9]\\d* merge passes.*"), "runs were merged down:\n" + logs);
        }
        Mpidrun.assertNoLocalFileLeft(spillDir);
        try (Stream<Path> logFiles = Files.list(result.logDir())) {
            for (Path log : logFiles.toList()) {
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)),
                        "a rank's log is its user's alone: " + log);
            }
        }
        assertTrue(result.elapsed().toSeconds() < 120);
        Mpidrun.assertNoProcessLeft(result.jobId());
    }
}
