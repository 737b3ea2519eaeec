package org.datampi.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.Test;

/**
 * The soak, short, as CI can afford it: bin/hs2-soak runs 60 statements through one HiveServer2 on datampi over TPC-H
 * at scale 0.01 (text: its load is a set of external tables) in a state directory of its own, with a jar's function
 * in sessions of their own, a query that fails to compile and a cancel among them. It must exit 0: every answer
 * equal to its first, the ranks' heap after GC, threads and descriptors within 20% of their values after 20
 * statements (more than bin/hs2-soak's 10%: three samples of a short run), and no file left under the ranks'
 * directory once the server stopped.
 */
class Hs2SoakIT {
    private static final Path HOME = Path.of(System.getProperty("datampi.home")).toAbsolutePath().normalize();

    @Test
    void aWarmGroupRunsSixtyStatementsWithoutGrowingAndLeavesNothing() throws Exception {
        Path root = HOME.resolve("hive-datampi-benchmarks/target/it-hs2-soak");
        FileUtil.fullyDelete(root.toFile());
        Files.createDirectories(root);
        Path log = root.resolve("hs2-soak.log");
        ProcessBuilder builder = new ProcessBuilder(HOME.resolve("bin/hs2-soak").toString(), "--statements", "60",
                "--sample-every", "20", "--baseline", "20", "--max-growth", "20", "--cancel-every", "45", "--scale",
                "0.01", "--format", "text", "--heap", "4g", "--out", root.resolve("out").toString())
                .directory(HOME.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        // The build under test is the one to run (no rebuild by bin/setup); the ranks' directory is the test's own.
        builder.environment().putAll(Map.of("HIVE_DATAMPI_STATE", root.resolve("state").toString(),
                "DATAMPI_LOCAL_DIR", Files.createDirectories(root.resolve("local")).toString(),
                "DATAMPI_SETUP_DONE", "1"));
        Process soak = builder.start();
        if (!soak.waitFor(15, TimeUnit.MINUTES)) {
            soak.descendants().forEach(ProcessHandle::destroyForcibly);
            soak.destroyForcibly();
            throw new AssertionError("bin/hs2-soak did not end within 15 minutes; see " + log);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(0, soak.exitValue(), "the soak stays within its bounds:\n" + output);
        Map<String, String> figures = Pattern.compile("(?m)^(soak_\\w+)=(\\S+)$").matcher(output).results()
                .collect(Collectors.toMap(result -> result.group(1), result -> result.group(2)));
        assertEquals("0", figures.get("soak_errors"), output);
        assertEquals("0", figures.get("soak_files_left"), output);
        // The query cancelled at 45 ended within the cancel grace (the soak checks the console says so): one group ran
        // all 60 statements.
        assertEquals("1", figures.get("soak_groups"), output);
        for (String measure : List.of("heap", "threads", "fds")) {
            assertTrue(figures.containsKey("soak_ranks_" + measure + "_growth_percent"), "the ranks' " + measure
                    + " was measured:\n" + output);
        }
        // Three samples, each with HiveServer2's JVM and two ranks.
        Matcher sampled = Pattern.compile("(?m)^hs2-soak: (\\d+) statements .*, group (\\d+): rank heap").matcher(output);
        assertEquals(List.of("20", "40", "60"), sampled.results().map(result -> result.group(1)).toList(), output);
    }
}
