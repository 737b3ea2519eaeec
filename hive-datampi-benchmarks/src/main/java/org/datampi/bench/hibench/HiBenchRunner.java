package org.datampi.bench.hibench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.datampi.bench.harness.RunnerOptions;
import org.datampi.bench.harness.Workload;
import org.datampi.bench.harness.WorkloadRunner;
import org.datampi.hive.cli.HiveQlScript;

/**
 * bin/hibench-run with one --engine: declares the HiBench tables over bin/hibench-gen's files (database
 * {@code hibench_<profile>_<format>}) and runs the workloads on that engine in one Hive session, writing each
 * workload's output table to {@code OUT/<workload>.tsv} and the timings to {@code OUT/timings.csv}.
 */
public final class HiBenchRunner {
    private static final String USAGE = "hibench-run --profile P --data DIR --format text|sequencefile|orc "
            + "--engine datampi|mr|tez|tez-yarn --out DIR [--runs N] [--warmup N] [--workloads aggregation,join,scan] "
            + "[--procs P] [--heap SIZE] [--warehouse DIR] [--continue true] [--hiveconf KEY=VALUE]...";

    private HiBenchRunner() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> defaults = new HashMap<>(WorkloadRunner.commonDefaults());
        defaults.putAll(Map.of("--runs", "1", "--warmup", "1", "--workloads", "aggregation,join,scan"));
        List<String> names = new ArrayList<>(WorkloadRunner.commonOptions());
        names.addAll(List.of("--profile", "--data", "--format", "--runs", "--warmup", "--workloads"));
        RunnerOptions options = RunnerOptions.parse(USAGE, args, names, defaults);
        HiBenchProfile profile = HiBenchProfile.of(options.get("--profile"));
        HiBenchFormat format = HiBenchFormat.of(options.get("--format"));
        Path data = Path.of(options.get("--data")).toAbsolutePath();
        for (HiBenchTable table : HiBenchTable.values()) {
            if (!Files.isDirectory(data.resolve(table.directory()))) {
                throw new IllegalArgumentException(data + " has no " + table.directory() + " directory: run "
                        + "bin/hibench-gen --profile " + profile.id() + " --format " + format.id() + " --out " + data);
            }
        }
        Path home = WorkloadRunner.home();
        List<Workload> workloads = new ArrayList<>();
        for (String id : options.get("--workloads").split(",")) {
            workloads.add(HiBenchWorkload.of(id.trim()).load(home.resolve("hibench-workloads")));
        }
        WorkloadRunner runner = WorkloadRunner.of(options, options.hiveconf());
        int failures = runner.run(tableStatements(home, database(profile, format), data, format), workloads,
                options.getInt("--warmup"),
                options.getInt("--runs"));
        System.exit(failures == 0 ? 0 : 1);
    }

    /** hibench_tiny_orc, hibench_large_sequencefile, ... */
    public static String database(HiBenchProfile profile, HiBenchFormat format) {
        return "hibench_" + profile.id() + "_" + format.id();
    }

    /** hibench-workloads/ddl.sql for these files: the input tables over them, the output tables beside. */
    public static List<String> tableStatements(Path home, String database, Path data, HiBenchFormat format)
            throws IOException {
        String ddl = Files.readString(home.resolve("hibench-workloads/ddl.sql"))
                .replace("${hivevar:DB}", database)
                .replace("${hivevar:DATA}", data.toUri().toString().replaceAll("/$", ""))
                .replace("${hivevar:ROW_FORMAT}", format.rowFormat())
                .replace("${hivevar:STORED_AS}", format.storedAs());
        return HiveQlScript.parse(ddl).all();
    }
}
