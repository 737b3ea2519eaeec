package org.datampi.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.hadoop.fs.FileUtil;
import org.datampi.bench.harness.ResultRows;
import org.datampi.bench.tpch.TpchGenerator;
import org.datampi.bench.tpch.TpchOracle;
import org.datampi.bench.tpch.TpchQuery;
import org.junit.jupiter.api.Test;

/**
 * The benchmarks' fair peer, Hive on Tez over YARN (engine tez-yarn), runs for real and answers correctly: a real
 * ResourceManager and NodeManager, Tez's session AM and each task in a container of its own, TPC-H queries at scale
 * 0.01 checked against DuckDB over the same generated files, and nothing left running afterwards.
 */
class TezOnYarnIT {
    private static final double SCALE = 0.01;
    private static final Path HOME = Path.of(System.getProperty("datampi.home")).toAbsolutePath().normalize();
    /** A scan with aggregation, a join with a broadcast edge, an outer join, and a multi-vertex semijoin plan. */
    private static final List<Integer> QUERIES = List.of(1, 3, 13, 18);

    @Test
    void tezYarnRunsTasksInContainersAndAnswersAsDuckDbDoes() throws Exception {
        Path root = HOME.resolve("hive-datampi-benchmarks/target/it-tez-yarn");
        FileUtil.fullyDelete(root.toFile());
        Path data = root.resolve("data");
        new TpchGenerator(SCALE, data, 2, new PrintStream(OutputStream.nullOutputStream())).generate();
        Path warehouse = root.resolve("state");
        run(root.resolve("load.log"), "bin/tpch-load", "--scale", "0.01", "--data", data.toString(), "--format", "text",
                "--warehouse", warehouse.toString());

        // As a user runs it, in a JVM of its own: Tez's runtime joins the classpath only for the tez engines.
        Path out = root.resolve("out");
        String queries = QUERIES.stream().map(String::valueOf).collect(Collectors.joining(","));
        int exit = run(root.resolve("run.log"), "bin/tpch-run", "--scale", "0.01", "--format", "text", "--engine",
                "tez-yarn", "--queries", queries, "--procs", "2", "--heap", "4g", "--warehouse", warehouse.toString(),
                "--out", out.toString());

        String console = Files.readString(out.resolve("console.log"), StandardCharsets.UTF_8);
        assertEquals(0, exit, "every query succeeds on tez-yarn; console:\n" + console);
        assertTrue(console.contains("bench: tez-yarn: 2 tasks at once"), console);
        assertTrue(console.contains("Executing on YARN cluster with App id application_"),
                "the queries ran on the YARN cluster:\n" + console);
        assertTrue(containers(out.resolve("engine/yarn/nm-logs")) >= 3,
                "Tez's AM and at least two task containers ran on the NodeManager");
        try (TpchOracle duckdb = TpchOracle.load(data)) {
            for (int number : QUERIES) {
                TpchQuery query = TpchQuery.load(HOME.resolve("tpch-queries"), number, SCALE);
                List<String> rows = Files.readAllLines(out.resolve(query.workload().name() + ".tsv"),
                        StandardCharsets.UTF_8);
                List<String> differences = ResultRows.differences(duckdb.answer(query), "DuckDB", rows, "tez-yarn",
                        true);
                assertTrue(differences.isEmpty(), "Q" + number + " on tez-yarn differs from DuckDB:\n"
                        + String.join("\n", differences));
            }
        }
        List<String> left = ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
                .map(process -> process.info().commandLine().orElse(""))
                .filter(command -> command.contains(out.resolve("engine/yarn").toString())).toList();
        assertTrue(left.isEmpty(), "the ResourceManager, the NodeManager and every container are gone: " + left);
    }

    /** Runs a command of this checkout, its output to log; returns its exit code. */
    private static int run(Path log, String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(command));
        line.set(0, HOME.resolve(command[0]).toString());
        Process process = new ProcessBuilder(line).directory(HOME.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not end within 10 minutes; see " + log);
        }
        return process.exitValue();
    }

    /** The container log directories the NodeManager made: one per container it launched. */
    private static long containers(Path nodeManagerLogs) throws IOException {
        try (Stream<Path> files = Files.walk(nodeManagerLogs, 2)) {
            return files.filter(path -> path.getFileName().toString().startsWith("container_")).count();
        }
    }
}
