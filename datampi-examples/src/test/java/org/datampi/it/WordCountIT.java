package org.datampi.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.io.Text;
import org.datampi.examples.GeneratedWords;
import org.datampi.mpid.HashPartitioner;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Word count over real mpidrun jobs, checked against the same count done in this JVM. */
class WordCountIT {
    private static final int WORDS_PER_TASK = 150_000;
    private static final int VOCABULARY = 5_000;

    @TempDir
    Path temp;

    @ParameterizedTest(name = "{0}: {1} processes, {2} O tasks, {3} A tasks, {4}")
    @CsvSource({
        "openmpi, 2, 5, 3, uniform",
        "openmpi, 4, 7, 6, uniform",
        "openmpi, 4, 6, 5, skewed",
        "mpich, 2, 5, 3, uniform",
        "mpich, 4, 7, 6, uniform",
        "mpich, 4, 6, 5, skewed"})
    void countsMatchTheSameCountInOneJvm(String mpi, int processes, int oTasks, int aTasks, String distribution)
            throws Exception {
        Path out = temp.resolve("out");
        long seed = 11;
        Mpidrun.Result result = Mpidrun.run(Duration.ofMinutes(3), List.of("-mode", "COM", "-O", "" + oTasks,
                "-A", "" + aTasks, "-np", "" + processes, "--oversubscribe", "--mpi", mpi, "--heap", "256m",
                "-jar", Mpidrun.jar("datampi-examples").toString(), "org.datampi.examples.WordCount", out.toString(),
                "" + WORDS_PER_TASK, "" + VOCABULARY, "" + seed, distribution)).assertSucceeded();

        Map<String, Long> expected = new HashMap<>();
        for (int task = 0; task < oTasks; task++) {
            GeneratedWords words = new GeneratedWords(seed, task, VOCABULARY, distribution.equals("skewed"));
            for (int i = 0; i < WORDS_PER_TASK; i++) {
                expected.merge(words.next(), 1L, Long::sum);
            }
        }
        Map<String, Long> actual = new HashMap<>();
        HashPartitioner partitioner = new HashPartitioner();
        for (int a = 0; a < aTasks; a++) {
            List<String> words = new ArrayList<>();
            for (String line : Files.readAllLines(out.resolve("part-" + a))) {
                String[] fields = line.split("\t");
                words.add(fields[0]);
                assertEquals(null, actual.put(fields[0], Long.parseLong(fields[1])), "one line per word: " + line);
                assertEquals(a, partitioner.getPartition(new Text(fields[0]), null, aTasks), "partition of " + line);
            }
            assertEquals(words.stream().sorted().toList(), words, "part-" + a + " is in key order");
        }
        assertEquals(expected, actual);
        if (distribution.equals("skewed")) {
            long total = expected.values().stream().mapToLong(Long::longValue).sum();
            assertTrue(expected.get(GeneratedWords.SKEWED_WORD) > total * 0.45, "one key carries about half");
        }
        assertTrue(result.stderr().contains("O tasks " + oTasks + "/" + oTasks + " done, A tasks " + aTasks + "/"
                + aTasks + " done (100%)"), result.stderr());
        assertEquals(processes, Files.list(result.logDir()).count(), "one log per rank");
        Mpidrun.assertNoProcessLeft(result.jobId());
    }
}
