package org.datampi.bench.tpch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.datampi.bench.harness.RunnerOptions;
import org.datampi.bench.harness.Workload;
import org.datampi.bench.harness.WorkloadRunner;

/**
 * bin/tpch-run: runs TPC-H queries on one engine in one Hive session, writing each query's result rows to
 * {@code OUT/qN.tsv} and every run's time to {@code OUT/timings.csv} (see {@link WorkloadRunner}), over the database
 * bin/tpch-load made: {@code tpch_sf<SF>_<format>}, with {@code --layout bucketed} its {@code _bucketed} twin (orders
 * and lineitem bucketed by the order key).
 */
public final class TpchRunner {
    private static final String USAGE = "tpch-run --scale SF --format text|orc|rcfile|parquet "
            + "--engine datampi|mr|tez|tez-yarn --out DIR [--layout flat|bucketed] [--queries 1-22] [--runs N] [--warmup N] [--procs P] [--heap SIZE] [--warehouse DIR] "
            + "[--continue true] [--hiveconf KEY=VALUE]...";

    private TpchRunner() {
    }

    public static void main(String[] args) throws Exception {
        Path home = WorkloadRunner.home();
        Map<String, String> defaults = new HashMap<>(WorkloadRunner.commonDefaults());
        defaults.putAll(Map.of("--queries", "1-22", "--runs", "1", "--warmup", "0", "--layout", "flat"));
        List<String> names = new ArrayList<>(WorkloadRunner.commonOptions());
        names.addAll(List.of("--scale", "--format", "--layout", "--queries", "--runs", "--warmup"));
        RunnerOptions options = RunnerOptions.parse(USAGE, args, names, defaults);
        String scale = options.get("--scale");
        List<Workload> workloads = new ArrayList<>();
        for (int number : parseQueries(options.get("--queries"))) {
            workloads.add(TpchQuery.load(home.resolve("tpch-queries"), number, Double.parseDouble(scale)).workload());
        }
        String database = database(scale, options.get("--format"), options.get("--layout"));
        WorkloadRunner runner = WorkloadRunner.of(options, options.hiveconf());
        // One untimed query first, so that no timed query pays for the engine's session start (datampi's ranks,
        // Tez's AM and prewarmed containers) even without --warmup.
        int failures = runner.run(List.of("USE " + database, "SELECT COUNT(*) FROM region"), workloads,
                options.getInt("--warmup"), options.getInt("--runs"));
        System.exit(failures == 0 ? 0 : 1);
    }

    /** The database bin/tpch-load made for SCALE, FORMAT and LAYOUT (flat or bucketed). */
    public static String database(String scale, String format, String layout) {
        String flat = "tpch_sf" + scale.replace('.', '_') + "_" + format;
        return switch (layout) {
            case "flat" -> flat;
            case "bucketed" -> flat + "_bucketed";
            default -> throw new IllegalArgumentException("Invalid value '" + layout + "' for --layout: expected flat "
                    + "or bucketed");
        };
    }

    /** "1-22", "3", "1,6,14", "1-5,9". */
    public static List<Integer> parseQueries(String spec) {
        List<Integer> queries = new ArrayList<>();
        for (String part : spec.split(",")) {
            String[] range = part.trim().split("-");
            int from = Integer.parseInt(range[0]);
            int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
            if (from < 1 || to > 22 || from > to) {
                throw new IllegalArgumentException("Invalid value '" + spec + "' for --queries: expected numbers "
                        + "or ranges within 1-22, e.g. 1-22 or 1,6,14");
            }
            for (int q = from; q <= to; q++) {
                queries.add(q);
            }
        }
        return queries;
    }
}
