package org.datampi.bench.tpcds;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.datampi.bench.harness.RunnerOptions;
import org.datampi.bench.harness.Workload;
import org.datampi.bench.harness.WorkloadRunner;

/**
 * bin/tpcds-run: runs TPC-DS queries on one engine in one Hive session, writing each query part's result rows to
 * {@code OUT/qN.tsv} ({@code OUT/q14a.tsv}, ...) and every run's time to {@code OUT/timings.csv} (see
 * {@link WorkloadRunner}). A database that bin/tpcds-load did not finish is refused. With {@code --acid true}, the
 * changes and queries of {@link TpcdsAcid} instead (its queries unless --queries says).
 */
public final class TpcdsRunner {
    private static final String USAGE = "tpcds-run --scale SF --format text|orc|rcfile|sequencefile|parquet "
            + "--engine datampi|datampi-mr|mr|tez|tez-yarn --out DIR [--layout flat|partitioned] [--queries 1-99] "
            + "[--runs N] [--warmup N] [--procs P] [--heap SIZE] [--warehouse DIR] [--continue true] "
            + "[--acid true] [--hiveconf KEY=VALUE]...";

    private TpcdsRunner() {
    }

    public static void main(String[] args) throws Exception {
        Path home = WorkloadRunner.home();
        Map<String, String> defaults = new HashMap<>(WorkloadRunner.commonDefaults());
        defaults.putAll(Map.of("--queries", "", "--runs", "1", "--warmup", "0", "--layout", "flat", "--acid", "false"));
        List<String> names = new ArrayList<>(WorkloadRunner.commonOptions());
        names.addAll(List.of("--scale", "--format", "--layout", "--queries", "--runs", "--warmup", "--acid"));
        RunnerOptions options = RunnerOptions.parse(USAGE, args, names, defaults);
        TpcdsLayout layout = TpcdsLayout.of(options.get("--scale"), options.get("--format"), options.get("--layout"));
        boolean acid = Boolean.parseBoolean(options.get("--acid"));
        if (acid && (options.getInt("--runs") != 1 || options.getInt("--warmup") != 0
                || Boolean.parseBoolean(options.get(WorkloadRunner.CONTINUE)))) {
            // Each change is timed once over the copy this run made: a second DELETE of the same rows finds none,
            // and a run that goes on from an interrupted one would work on a copy without the changes it kept.
            System.err.println("tpcds-run: --acid times each change once: --runs 1, --warmup 0, no --continue");
            System.exit(2);
        }
        String queries = options.get("--queries").isEmpty() ? (acid ? TpcdsAcid.DEFAULT_QUERIES : "1-99")
                : options.get("--queries");
        List<Workload> workloads = new ArrayList<>(acid ? TpcdsAcid.changes() : List.of());
        for (int number : TpcdsQuery.parseNumbers(queries)) {
            TpcdsQuery.load(home.resolve("tpcds-queries"), number).parts()
                    .forEach(part -> workloads.add(acid ? TpcdsAcid.overCopy(part) : part.workload()));
        }
        Map<String, String> settings = new HashMap<>(acid ? TpcdsAcid.SETTINGS : Map.of());
        settings.putAll(options.hiveconf());
        WorkloadRunner runner = WorkloadRunner.of(options, settings);
        // One untimed query first, so that no timed query pays for the engine's session start (datampi's ranks,
        // Tez's AM and prewarmed containers) even without --warmup.
        int failures;
        try {
            failures = runner.run(List.of(), hive -> {
                String mark = TpcdsLoader.loadedMark(hive, layout.database());
                if (!layout.isLoadedBy(mark)) {
                    String state = mark.isEmpty() ? "is missing or was not loaded to the end" : "holds '" + mark + "'";
                    throw new IOException("database " + layout.database() + " " + state + ": run bin/tpcds-load "
                            + "--scale " + layout.scale() + " --format " + layout.format()
                            + (layout.partitioned() ? " --partitioned" : "") + " (again)");
                }
                hive.execute("USE " + layout.database());
                hive.execute("SELECT COUNT(*) FROM store");
                if (acid) {
                    // Each engine's own copy, made before the first timed change.
                    for (String statement : TpcdsAcid.setup()) {
                        hive.execute(statement);
                    }
                }
            }, workloads, options.getInt("--warmup"), options.getInt("--runs"));
        } catch (IOException e) {
            System.err.println("tpcds-run: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(failures == 0 ? 0 : 1);
    }
}
