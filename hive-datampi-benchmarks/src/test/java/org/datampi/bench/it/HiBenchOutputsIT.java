package org.datampi.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hive.common.io.SessionStream;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.datampi.bench.harness.ResultRows;
import org.datampi.bench.harness.Workload;
import org.datampi.bench.hibench.HiBenchFormat;
import org.datampi.bench.hibench.HiBenchGenerator;
import org.datampi.bench.hibench.HiBenchProfile;
import org.datampi.bench.hibench.HiBenchRunner;
import org.datampi.bench.hibench.HiBenchWorkload;
import org.datampi.hive.session.QuerySession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * HiBench's workloads on bin/hibench-gen's data: each workload's output table on datampi equals the one Hive on MR
 * writes from the same input in the same session (as multisets; doubles within a relative 1e-9, since the engines
 * may add a group's values in another order). SequenceFile (HiBench's own format) at the small profile, text and
 * ORC at tiny.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HiBenchOutputsIT {
    private static final Path HOME = Path.of(System.getProperty("datampi.home")).toAbsolutePath().normalize();
    private static final Path ROOT = HOME.resolve("hive-datampi-benchmarks/target/it-hibench");
    private static final Map<HiBenchFormat, HiBenchProfile> DATA = Map.of(
            HiBenchFormat.SEQUENCEFILE, HiBenchProfile.SMALL,
            HiBenchFormat.TEXT, HiBenchProfile.TINY,
            HiBenchFormat.ORC, HiBenchProfile.TINY);

    private QuerySession hive;
    private ByteArrayOutputStream console;

    @BeforeAll
    void generateData() throws Exception {
        FileUtil.fullyDelete(ROOT.toFile());
        console = new ByteArrayOutputStream();
        SessionStream stream = new SessionStream(console, true, StandardCharsets.UTF_8.name());
        hive = QuerySession.start(ROOT.resolve("state"), Map.of("hive.datampi.heap", "768m"), stream, stream);
        for (Map.Entry<HiBenchFormat, HiBenchProfile> data : DATA.entrySet()) {
            Path dir = ROOT.resolve("data-" + data.getKey().id());
            new HiBenchGenerator(data.getValue(), data.getKey(), dir, 7,
                    new PrintStream(OutputStream.nullOutputStream())).generate();
        }
    }

    @AfterAll
    void close() throws Exception {
        hive.close();
    }

    static Stream<Arguments> workloads() {
        return Stream.of(HiBenchFormat.values()).flatMap(format -> Stream.of(HiBenchWorkload.values())
                .map(workload -> Arguments.of(format, workload)));
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("workloads")
    void datampiWritesWhatMrWrites(HiBenchFormat format, HiBenchWorkload workload) throws Exception {
        HiBenchProfile profile = DATA.get(format);
        for (String statement : HiBenchRunner.tableStatements(HOME, HiBenchRunner.database(profile, format),
                ROOT.resolve("data-" + format.id()), format)) {
            hive.execute(statement);
        }
        Workload queries = workload.load(HOME.resolve("hibench-workloads"));
        int before = console.size();
        List<String> datampi = output("datampi", queries);
        assertTrue(console.toString(StandardCharsets.UTF_8).substring(before).contains("job_datampi"),
                workload.id() + " ran on datampi");
        List<String> mr = output("mr", queries);
        assertTrue(!mr.isEmpty(), workload.id() + " wrote rows on mr");
        assertEquals(mr.size(), datampi.size(), workload.id() + " row count");
        List<String> differences = new ArrayList<>();
        for (int i = 0; i < mr.size(); i++) {
            if (!ResultRows.sameRow(mr.get(i), datampi.get(i), HiBenchOutputsIT::closeDoubles)) {
                differences.add("mr:      " + mr.get(i) + "\ndatampi: " + datampi.get(i));
            }
        }
        if (!differences.isEmpty()) {
            fail(workload.id() + " on " + format.id() + ": " + differences.size() + " rows differ, e.g.\n"
                    + String.join("\n", differences.subList(0, Math.min(5, differences.size()))));
        }
    }

    /** The workload's output table after running it on an engine, sorted. */
    private List<String> output(String engine, Workload workload) throws CommandProcessorException {
        hive.execute("SET hive.execution.engine=" + engine);
        for (String statement : workload.statements()) {
            hive.execute(statement);
        }
        List<String> rows = new ArrayList<>(hive.execute(workload.output().orElseThrow()));
        rows.sort(null);
        return rows;
    }

    private static boolean closeDoubles(String expected, String actual) {
        try {
            double e = Double.parseDouble(expected);
            double a = Double.parseDouble(actual);
            return Math.abs(e - a) <= 1e-9 * Math.max(Math.abs(e), Math.abs(a));
        } catch (NumberFormatException notANumber) {
            return false;
        }
    }
}
