package org.datampi.bench.tpch;

import static java.util.Objects.requireNonNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.apache.hadoop.fs.FileUtil;
import org.datampi.bench.harness.BenchmarkDriver;
import org.datampi.bench.harness.ResultRows;
import org.datampi.bench.harness.RunnerOptions;
import org.datampi.bench.harness.Timing;

/**
 * bin/tpch-bench --cluster: TPC-H on datampi across the simulated hosts of bin/cluster-sim (HDFS on every host, Hive
 * on dmp1, two ranks per host), once for each link rate asked for, every host's link shaped by tc to it ("off":
 * unshaped); the first rate is the one the others are compared with. The report ({@link ClusterTpchReport}) has each
 * query's time at each rate, what its vertices shuffled (the ranks' own counters, {@link RunConsole}), and for each
 * shaped rate the bytes and the peak rate of the host that sent the most over its link (the hosts' kernel counters,
 * {@link LinkSampler}). Every answer at every rate is checked against DuckDB over the same generated files.
 *
 * <p>The data is generated on this machine where missing, into a directory every host sees (the hosts' /tmp, state
 * and logs directories are their own), put into the cluster's HDFS with one replica (the hosts' storage is memory:
 * it all lands on dmp1's DataNode, which the load then reads from) and loaded by bin/tpch-load on the cluster; the
 * text copy is then removed, unless the tables are the text itself. The cluster is brought up here and taken down at
 * the end, or when the JVM is stopped (Ctrl-C); one must not be up already.
 */
public final class ClusterTpchBench {
    private static final String USAGE = "ClusterTpchBench --scale SF --out DIR --command TEXT [--format orc] "
            + "[--hosts 3] [--links off,1gbit] [--queries 1-22] [--runs 1] [--warmup 1] [--procs P] [--heap 12g] "
            + "[--data DIR] [--record FILE --section NAME] [--hiveconf K=V]...";
    /** The cluster's HDFS (bin/cluster-sim: the NameNode on dmp1). */
    private static final String HDFS = "hdfs://dmp1:9000";
    /** Often enough for a second's peak to be ten readings; each is a read of /sys per host. */
    private static final Duration SAMPLE_EVERY = Duration.ofMillis(100);
    /** What bin/cluster-sim link takes (its rate_bits): off, or whole kbit, mbit or gbit. */
    private static final String RATE = "off|[0-9]+(kbit|mbit|gbit)";

    private final Path home;
    private final Path out;

    private ClusterTpchBench(Path home, Path out) {
        this.home = requireNonNull(home, "home is null");
        this.out = requireNonNull(out, "out is null");
    }

    public static void main(String[] args) throws Exception {
        RunnerOptions options = RunnerOptions.parse(USAGE, args, List.of("--scale", "--out", "--command", "--format",
                "--hosts", "--links", "--queries", "--runs", "--warmup", "--procs", "--heap", "--data", "--record",
                "--section"), Map.of("--format", "orc", "--hosts", "3", "--links", ClusterTpchReport.UNSHAPED
                        + ",1gbit", "--queries", "1-22", "--runs", "1", "--warmup", "1", "--heap", "12g"));
        Path home = Path.of(requireNonNull(System.getProperty("datampi.home"), "datampi.home is not set"));
        String scaleText = options.get("--scale");
        double scale = Double.parseDouble(scaleText);
        String dbScale = scaleText.replace('.', '_');
        String format = options.get("--format");
        int hosts = options.getInt("--hosts");
        List<String> hostNames = IntStream.rangeClosed(1, hosts).mapToObj(host -> "dmp" + host).toList();
        List<String> links = List.of(options.get("--links").split(","));
        if (!links.stream().allMatch(link -> link.matches(RATE)) || new HashSet<>(links).size() != links.size()) {
            throw new IllegalArgumentException("--links takes different rates, each off or like 1gbit or 100mbit "
                    + "(whole numbers, as bin/cluster-sim link), got '" + options.get("--links") + "'");
        }
        List<TpchQuery> queries = new ArrayList<>();
        for (int number : TpchRunner.parseQueries(options.get("--queries"))) {
            queries.add(TpchQuery.load(home.resolve("tpch-queries"), number, scale));
        }
        Path data = shared(home, "--data", Path.of(options.find("--data")
                .orElse(home.resolve("target/tpch-data/sf" + dbScale).toString())));
        Path out = Files.createDirectories(shared(home, "--out", Path.of(options.get("--out"))));
        ClusterTpchBench bench = new ClusterTpchBench(home, out);

        new TpchGenerator(scale, data, 4, System.err).generate();
        List<String> runArgs = new ArrayList<>(List.of("--scale", scaleText, "--format", format, "--engine",
                "datampi", "--procs", options.find("--procs").orElse(String.valueOf(2 * hosts)), "--heap",
                options.get("--heap"), "--queries", options.get("--queries"), "--runs", options.get("--runs"),
                "--warmup", options.get("--warmup")));
        options.hiveconf().forEach((key, value) -> runArgs.addAll(List.of("--hiveconf", key + "=" + value)));
        Map<String, LinkRun> runs = bench.onCluster(hosts, () -> {
            String hdfsData = "/tpch-sf" + dbScale;
            bench.clusterSim("put", "hdfs", "dfs", "-D", "dfs.replication=1", "-put", data.toString(), hdfsData);
            bench.clusterSim("load", "run", "tpch-load", "--scale", scaleText, "--data", HDFS + hdfsData, "--format",
                    format);
            if (!format.equals("text")) {
                bench.clusterSim("remove-text", "hdfs", "dfs", "-rm", "-r", "-skipTrash", hdfsData);
            }
            Map<String, LinkRun> byLink = new LinkedHashMap<>();
            for (String link : links) {
                bench.clusterSim("link-" + link, "link", link);
                byLink.put(link, bench.run(link, hostNames, runArgs));
            }
            return byLink;
        });

        List<String> wrong = new ArrayList<>();
        try (TpchOracle duckdb = TpchOracle.load(data)) {
            for (TpchQuery query : queries) {
                List<String> expected = duckdb.answer(query);
                for (String link : links) {
                    Path rows = out.resolve(link).resolve(query.workload().name() + ".tsv");
                    List<String> differences = ResultRows.differences(expected, "DuckDB",
                            Files.exists(rows) ? Files.readAllLines(rows, StandardCharsets.UTF_8) : List.of(),
                            "datampi at link " + link, true);
                    if (!differences.isEmpty()) {
                        wrong.add(query.workload().name() + " at link " + link + ":\n"
                                + String.join("\n", differences));
                    }
                }
            }
        }
        String settings = String.format(Locale.ROOT, "TPC-H scale %s, %s, on %d simulated hosts of bin/cluster-sim "
                + "(network namespaces sharing this machine's %d cores, their links a bridge; HDFS with a DataNode on "
                + "every host; Hive on dmp1): datampi's DAG shape on %s ranks spread over the hosts, %s of heap in all "
                + "(half Hive's, half the ranks'). At each rate every query ran %s untimed, then %s timed, with every "
                + "host's link shaped by tc to the rate (off: not shaped); each host's link counter was read every "
                + "%d ms.", scaleText, format, hosts, Runtime.getRuntime().availableProcessors(),
                options.find("--procs").orElse(String.valueOf(2 * hosts)), options.get("--heap"),
                options.get("--warmup"), options.get("--runs"), SAMPLE_EVERY.toMillis());
        ClusterTpchReport report = ClusterTpchReport.of(settings, queries.stream().map(q -> q.workload().name())
                .toList(), links, runs, wrong);
        Files.writeString(out.resolve("summary.md"), settings + "\n\n" + report.body() + "\n```\n"
                + report.keyLines() + "```\n", StandardCharsets.UTF_8);
        System.out.print(report.body());
        System.out.print(report.keyLines());
        if (options.find("--record").isPresent()) {
            BenchmarkDriver.record(Path.of(options.get("--record")), options.find("--section")
                    .orElse("tpch-sf" + dbScale + "-" + format + "-cluster"), options.get("--command"), settings,
                    report.body(), "```\n" + report.keyLines() + "```\n", Optional.empty());
        }
        System.exit(wrong.isEmpty() && runs.values().stream().allMatch(run -> run.exit() == 0) ? 0 : 1);
    }

    /** What runs while the cluster is up. */
    private interface OnCluster<T> {
        T run() throws IOException, InterruptedException;
    }

    /**
     * Brings a cluster of HOSTS up, runs WORK, and takes the cluster down, whatever happened (a stopped JVM too:
     * a shutdown hook takes it down then; down is idempotent).
     */
    private <T> T onCluster(int hosts, OnCluster<T> work) throws IOException, InterruptedException {
        Thread down = new Thread(() -> {
            try {
                clusterSim("down-on-exit", "down");
            } catch (IOException | InterruptedException | IllegalStateException e) {
                System.err.println("cluster-tpch: could not take the cluster down: " + e.getMessage());
            }
        }, "cluster-down");
        Runtime.getRuntime().addShutdownHook(down);
        Throwable failure = null;
        try {
            clusterSim("up", "up", "--hosts", String.valueOf(hosts));
            return work.run();
        } catch (IOException | InterruptedException | RuntimeException e) {
            failure = e;
            throw e;
        } finally {
            Runtime.getRuntime().removeShutdownHook(down);
            try {
                clusterSim("down", "down");
            } catch (IOException | InterruptedException | RuntimeException e) {
                if (failure == null) {
                    throw e;
                }
                failure.addSuppressed(e);
            }
        }
    }

    /** DIR made absolute; refused where the hosts do not all see the same files (bin/cluster-sim). */
    private static Path shared(Path home, String option, Path dir) {
        Path absolute = dir.toAbsolutePath().normalize();
        for (Path own : List.of(Path.of("/tmp"), Path.of("/dev/shm"), home.resolve("state"), home.resolve("logs"))) {
            if (absolute.startsWith(own)) {
                throw new IllegalArgumentException(option + " " + absolute + " is in " + own + ", which each "
                        + "simulated host has of its own: give a directory every host sees (under " + home
                        + "/target, say)");
            }
        }
        return absolute;
    }

    /**
     * The queries at one link rate: bin/tpch-run on dmp1 through bin/cluster-sim into OUT/LINK (emptied first: a
     * run that fails must not leave an earlier run's timings and rows to be reported), with every host's link counter
     * sampled meanwhile (into OUT/LINK/link-samples.csv).
     */
    private LinkRun run(String link, List<String> hosts, List<String> runArgs) throws IOException,
            InterruptedException {
        Path runOut = out.resolve(link);
        FileUtil.fullyDelete(runOut.toFile());
        Files.createDirectories(runOut);
        List<String> command = new ArrayList<>(List.of("run", "tpch-run"));
        command.addAll(runArgs);
        command.addAll(List.of("--out", runOut.toString()));
        RunConsole console = new RunConsole(System::currentTimeMillis);
        int exit;
        LinkSampler sampler = LinkSampler.start(hosts, SAMPLE_EVERY);
        try (sampler) {
            exit = clusterSimExit("run-" + link, console, command.toArray(String[]::new));
        }
        LinkSamples samples = sampler.samples();
        Files.write(runOut.resolve("link-samples.csv"), samples.csv(hosts), StandardCharsets.UTF_8);
        Map<String, List<Double>> times = new HashMap<>();
        Path timings = runOut.resolve("timings.csv");
        if (Files.exists(timings)) {
            List<String> lines = Files.readAllLines(timings, StandardCharsets.UTF_8);
            for (Timing timing : lines.subList(1, lines.size()).stream().map(Timing::fromCsv).toList()) {
                if (timing.ok()) {
                    times.computeIfAbsent(timing.workload(), name -> new ArrayList<>()).add(timing.seconds());
                }
            }
        }
        Map<String, Double> seconds = new HashMap<>();
        times.forEach((workload, each) -> seconds.put(workload, new Median().evaluate(each.stream()
                .mapToDouble(Double::doubleValue).toArray())));
        return new LinkRun(exit, seconds, console.windows(), console.shuffled(), samples);
    }

    /** A rate bin/cluster-sim link takes (1gbit, 100mbit, ...) in bytes per second; off (unshaped) is infinite. */
    static double bytesPerSecond(String rate) {
        if (!rate.matches(RATE)) {
            throw new IllegalArgumentException("Not a link rate (off, or like 1gbit or 100mbit): '" + rate + "'");
        }
        if (rate.equals(ClusterTpchReport.UNSHAPED)) {
            return Double.POSITIVE_INFINITY;
        }
        long number = Long.parseLong(rate.substring(0, rate.length() - 4));
        long bits = switch (rate.substring(rate.length() - 4)) {
            case "kbit" -> 1_000L;
            case "mbit" -> 1_000_000L;
            default -> 1_000_000_000L;
        };
        return number * bits / 8.0;
    }

    /** bin/cluster-sim ARGS, its output into OUT/NAME.log and onto the console; fails unless it succeeds. */
    private void clusterSim(String name, String... args) throws IOException, InterruptedException {
        int exit = clusterSimExit(name, line -> { }, args);
        if (exit != 0) {
            throw new IllegalStateException("bin/cluster-sim " + String.join(" ", args) + " failed (exit " + exit
                    + "); see " + out.resolve(name + ".log"));
        }
    }

    /** bin/cluster-sim ARGS, each line of its output into OUT/NAME.log, onto the console and to ON_LINE; its exit. */
    private int clusterSimExit(String name, Consumer<String> onLine, String... args) throws IOException,
            InterruptedException {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/cluster-sim").toString()));
        command.addAll(Arrays.asList(args));
        System.err.println("cluster-tpch: " + String.join(" ", command));
        Process process = new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true).start();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)); Writer log = Files.newBufferedWriter(out.resolve(name + ".log"))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                onLine.accept(line);
                System.err.println(line);
                log.write(line);
                log.write('\n');
            }
        }
        return process.waitFor();
    }
}
