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
import java.util.stream.Stream;

import org.datampi.examples.GeneratedRecords;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A total sort of raw byte pairs over real mpidrun jobs, checked against a sort of the same records in this JVM. */
class TotalSortIT {
    private static final int RECORDS_PER_TASK = 60_000;

    @TempDir
    Path temp;

    @ParameterizedTest(name = "{0}: {1} processes, {2} O tasks, {3} A tasks, memusedpercent {4}, {5}")
    @CsvSource({
        "openmpi, 2, 5, 3, 0.4, none",
        "openmpi, 4, 6, 7, 0.4, lz4",
        "openmpi, 2, 4, 3, 0.002, none",
        "mpich, 2, 5, 3, 0.4, zstd",
        "mpich, 4, 6, 7, 0.4, none",
        "mpich, 2, 4, 3, 0.002, lz4"})
    void partsConcatenateToTheSortedRecords(String mpi, int processes, int oTasks, int aTasks, String memUsedPercent,
            String compression) throws Exception {
        Path out = temp.resolve("out");
        Path spillDir = Files.createDirectories(temp.resolve("spill"));
        long seed = 3;
        Mpidrun.Result result = Mpidrun.run(Duration.ofMinutes(3), List.of("-mode", "COM", "-O", "" + oTasks,
                "-A", "" + aTasks, "-np", "" + processes, "--oversubscribe", "--mpi", mpi, "--heap", "256m",
                "-D", "mpid.memusedpercent=" + memUsedPercent, "-D", "mpid.compression=" + compression,
                "-D", "mpid.local.dir=" + spillDir, "-D", "mpid.block.size=65536",
                "-jar", Mpidrun.shuffleJar().toString(), "org.datampi.examples.TotalSort", out.toString(),
                "" + RECORDS_PER_TASK, "" + seed)).assertSucceeded();

        HexFormat hex = HexFormat.of();
        List<String> expected = new ArrayList<>();
        for (int task = 0; task < oTasks; task++) {
            GeneratedRecords records = new GeneratedRecords(seed, task);
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

        boolean spilled = result.rankLogs().contains("Spilled");
        assertEquals(Double.parseDouble(memUsedPercent) < 0.01, spilled, "a tiny memory share must spill");
        Mpidrun.assertNoLocalFileLeft(spillDir);
        try (Stream<Path> logs = Files.list(result.logDir())) {
            for (Path log : logs.toList()) {
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)),
                        "a rank's log is its user's alone: " + log);
            }
        }
        assertTrue(result.elapsed().toSeconds() < 120);
        Mpidrun.assertNoProcessLeft(result.jobId());
    }
}
