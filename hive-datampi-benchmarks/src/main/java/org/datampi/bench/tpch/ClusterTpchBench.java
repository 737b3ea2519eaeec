package org.datampi.bench.tpch;

import static java.util.Objects.requireNonNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.datampi.bench.harness.BenchmarkDriver;
import org.datampi.bench.harness.ResultRows;
import org.datampi.bench.harness.RunnerOptions;
import org.datampi.bench.harness.Timing;

/**
 * bin/tpch-bench --cluster: TPC-H on datampi across the simulated hosts of bin/cluster-sim (HDFS on every host, Hive
 * on dmp1, two ranks per host), once for each link rate asked for, every host's link shaped by tc to it ("off":
 * unshaped); the first rate is the one the others are compared with. Per query it reports the time at each rate, the
 * bytes the query's vertices sent over their edges (the ranks' own counters: the execution summary's SHUFFLED, a
 * host's share of which stays on the host), and for each shaped rate the bytes the busiest host sent over its link
 * and that host's highest rate over a second (the hosts' kernel counters, {@link LinkSampler}), as a share of the
 * shaped rate. Every answer at every rate is checked against DuckDB over the same generated files.
 *
 * <p>The data is generated on this machine (where missing), put into the cluster's HDFS with one replica (the hosts'
 * storage is memory) and loaded by bin/tpch-load on the cluster, then the text copy is removed. The cluster is
 * brought up here and taken down at the end; one must not be up already.
 */
public final class ClusterTpchBench {
    private static final String USAGE = "ClusterTpchBench --scale SF --out DIR --command TEXT [--format orc] "
            + "[--hosts 3] [--links off,1gbit] [--queries 1-22] [--runs 1] [--warmup 1] [--procs P] [--heap 12g] "
            + "[--data DIR] [--record FILE --section NAME] [--hiveconf K=V]...";
    /** The cluster's HDFS (bin/cluster-sim: the NameNode on dmp1). */
    private static final String HDFS = "hdfs://dmp1:9000";
    private static final Duration SAMPLE_EVERY = Duration.ofMillis(100);
    private static final long PEAK_WINDOW_MILLIS = 1000;
    private static final String UNSHAPED = "off";
    private static final Pattern RUN_BEGIN = Pattern.compile("bench: begin (\\S+) run \\d+");
    private static final Pattern RUN_END = Pattern.compile("bench: (\\S+) run \\d+ on datampi: .*");
    /** A vertex's row of datampi's execution summary; its SHUFFLED column is the third of sizes. */
    private static final Pattern VERTEX_ROW = Pattern.compile("(?:Map|Reducer|Union) \\d+ +\\d+ +[\\d,]+ +[\\d,]+ "
            + "+[\\d,]+ +[\\d,]+ +\\d+(?:\\.\\d)? [KMGTP]?B +\\d+(?:\\.\\d)? [KMGTP]?B +(\\d+(?:\\.\\d)?) ([KMGTP]?)B "
            + "+\\S+");

    private final Path home;
    private final Path out;

    private ClusterTpchBench(Path home, Path out) {
        this.home = requireNonNull(home, "home is null");
        this.out = requireNonNull(out, "out is null");
    }

    public static void main(String[] args) throws Exception {
        RunnerOptions options = RunnerOptions.parse(USAGE, args, List.of("--scale", "--out", "--command", "--format",
                "--hosts", "--links", "--queries", "--runs", "--warmup", "--procs", "--heap", "--data", "--record",
                "--section"), Map.of("--format", "orc", "--hosts", "3", "--links", UNSHAPED + ",1gbit", "--queries",
                        "1-22", "--runs", "1", "--warmup", "1", "--heap", "12g"));
        Path home = Path.of(requireNonNull(System.getProperty("datampi.home"), "datampi.home is not set"));
        String scaleText = options.get("--scale");
        double scale = Double.parseDouble(scaleText);
        String dbScale = scaleText.replace('.', '_');
        int hosts = options.getInt("--hosts");
        List<String> hostNames = IntStream.rangeClosed(1, hosts).mapToObj(host -> "dmp" + host).toList();
        List<String> links = List.of(options.get("--links").split(","));
        links.forEach(ClusterTpchBench::bytesPerSecond); // a rate that is not one fails here, before anything runs
        List<TpchQuery> queries = new ArrayList<>();
        for (int number : TpchRunner.parseQueries(options.get("--queries"))) {
            queries.add(TpchQuery.load(home.resolve("tpch-queries"), number, scale));
        }
        Path data = Path.of(options.find("--data").orElse(home.resolve("state/tpch-data/sf" + dbScale).toString()));
        Path out = Files.createDirectories(Path.of(options.get("--out")));
        ClusterTpchBench bench = new ClusterTpchBench(home, out);

        new TpchGenerator(scale, data, 4, System.err).generate();
        String hdfsData = "/tpch-sf" + dbScale;
        List<String> runArgs = new ArrayList<>(List.of("--scale", scaleText, "--format", options.get("--format"),
                "--engine", "datampi", "--procs", options.find("--procs").orElse(String.valueOf(2 * hosts)),
                "--heap", options.get("--heap"), "--queries", options.get("--queries"), "--runs",
                options.get("--runs"), "--warmup", options.get("--warmup")));
        options.hiveconf().forEach((key, value) -> runArgs.addAll(List.of("--hiveconf", key + "=" + value)));
        Map<String, LinkRun> runs = new LinkedHashMap<>();
        bench.clusterSim("up", "up", "--hosts", String.valueOf(hosts));
        try {
            bench.clusterSim("put", "hdfs", "dfs", "-D", "dfs.replication=1", "-put", data.toString(), hdfsData);
            bench.clusterSim("load", "run", "tpch-load", "--scale", scaleText, "--data", HDFS + hdfsData, "--format",
                    options.get("--format"));
            bench.clusterSim("remove-text", "hdfs", "dfs", "-rm", "-r", "-skipTrash", hdfsData);
            for (String link : links) {
                bench.clusterSim("link-" + link, "link", link);
                runs.put(link, bench.run(link, hostNames, runArgs));
            }
        } finally {
            bench.clusterSim("link-off", "link", UNSHAPED);
            bench.clusterSim("down", "down");
        }

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
                        wrong.add(query.workload().name() + " at link " + link + ":\n" + String.join("\n",
                                differences));
                    }
                }
            }
        }
        Report report = report(queries, links, runs, hosts, options, wrong);
        Files.writeString(out.resolve("summary.md"), report.body() + "\n```\n" + report.ratios() + "```\n",
                StandardCharsets.UTF_8);
        System.out.print(report.body());
        System.out.print(report.ratios());
        if (options.find("--record").isPresent()) {
            BenchmarkDriver.record(Path.of(options.get("--record")), options.find("--section")
                    .orElse("tpch-sf" + dbScale + "-" + options.get("--format") + "-cluster"), options.get("--command"),
                    report.settings(), report.body(), "```\n" + report.ratios() + "```\n", Optional.empty());
        }
        System.exit(wrong.isEmpty() && runs.values().stream().allMatch(run -> run.exit() == 0) ? 0 : 1);
    }

    /**
     * The queries at one link rate: bin/tpch-run on dmp1 through bin/cluster-sim, with every host's link counter
     * sampled meanwhile. Each query's last timed run is marked by the runner's console ("bench: begin qN run R" to
     * "bench: qN run R on datampi: ..."): its window is when those lines arrived, and its shuffled bytes are its
     * stages' SHUFFLED summed from the lines between them.
     */
    private LinkRun run(String link, List<String> hosts, List<String> runArgs) throws IOException,
            InterruptedException {
        Path runOut = out.resolve(link);
        List<String> command = new ArrayList<>(List.of("run", "tpch-run"));
        command.addAll(runArgs);
        command.addAll(List.of("--out", runOut.toString()));
        RunConsole console = new RunConsole(System::currentTimeMillis);
        int exit;
        LinkSamples samples;
        try (LinkSampler sampler = LinkSampler.start(hosts, SAMPLE_EVERY)) {
            exit = clusterSimExit("run-" + link, console, command.toArray(String[]::new));
            sampler.close();
            samples = sampler.samples();
        }
        Map<String, Double> seconds = new HashMap<>();
        Path timings = runOut.resolve("timings.csv");
        if (Files.exists(timings)) {
            Map<String, List<Double>> all = new HashMap<>();
            List<String> lines = Files.readAllLines(timings, StandardCharsets.UTF_8);
            for (String line : lines.subList(1, lines.size())) {
                Timing timing = Timing.fromCsv(line);
                if (timing.ok()) {
                    all.computeIfAbsent(timing.workload(), name -> new ArrayList<>()).add(timing.seconds());
                }
            }
            all.forEach((workload, times) -> seconds.put(workload, new Median().evaluate(times.stream()
                    .mapToDouble(Double::doubleValue).toArray())));
        }
        return new LinkRun(exit, seconds, console.windows(), console.shuffled(), samples);
    }

    /** When a query's last run ran, epoch milliseconds. */
    record Window(long from, long to) {
    }

    /**
     * tpch-run's console read as it arrives, line by line: each query's last timed run is marked ("bench: begin qN
     * run R" to "bench: qN run R on datampi: ..."), its window is when those lines arrived (CLOCK), and its shuffled
     * bytes are the SHUFFLED column of the execution summaries between them. Used by one thread.
     */
    static final class RunConsole implements Consumer<String> {
        private final LongSupplier clock;
        private final Map<String, Window> windows = new LinkedHashMap<>();
        private final Map<String, Long> shuffled = new HashMap<>();
        private String current;
        private long begun;

        RunConsole(LongSupplier clock) {
            this.clock = requireNonNull(clock, "clock is null");
        }

        @Override
        public void accept(String line) {
            Matcher begin = RUN_BEGIN.matcher(line);
            Matcher end = RUN_END.matcher(line);
            Matcher vertex = VERTEX_ROW.matcher(line.strip());
            if (begin.matches()) {
                current = begin.group(1);
                begun = clock.getAsLong();
                shuffled.put(current, 0L);
            } else if (current != null && end.matches() && end.group(1).equals(current)) {
                windows.put(current, new Window(begun, clock.getAsLong()));
                current = null;
            } else if (current != null && vertex.matches()) {
                shuffled.merge(current, bytes(vertex.group(1), vertex.group(2)), Long::sum);
            }
        }

        /** Each query's last finished run's window. */
        Map<String, Window> windows() {
            return Map.copyOf(windows);
        }

        /** Each query's last run's shuffled bytes. */
        Map<String, Long> shuffled() {
            return Map.copyOf(shuffled);
        }
    }

    /**
     * One link rate's run: its exit, each query's median seconds (succeeded runs), the window of its last run
     * (epoch milliseconds), the bytes its last run's vertices sent, and the hosts' link counters over the run.
     */
    private record LinkRun(int exit, Map<String, Double> seconds, Map<String, Window> windows,
            Map<String, Long> shuffled, LinkSamples samples) {
        /** The most bytes one host sent in the query's window. */
        long busiestSent(String workload) {
            Window window = windows.get(workload);
            return window == null ? 0 : samples.busiestSent(window.from(), window.to());
        }

        /** The busiest host's highest rate over a second in the query's window, bytes per second. */
        double busiestRate(String workload) {
            Window window = windows.get(workload);
            return window == null ? 0 : samples.busiestRate(window.from(), window.to(), PEAK_WINDOW_MILLIS);
        }
    }

    private record Report(String settings, String body, String ratios) {
    }

    private static Report report(List<TpchQuery> queries, List<String> links, Map<String, LinkRun> runs, int hosts,
            RunnerOptions options, List<String> wrong) {
        String base = links.get(0);
        List<String> shaped = links.stream().filter(link -> !link.equals(UNSHAPED)).toList();
        StringBuilder header = new StringBuilder("| query |");
        StringBuilder align = new StringBuilder("|---|");
        for (String link : links) {
            header.append(" link ").append(link).append(" s |");
            align.append("---:|");
        }
        for (String link : links.subList(1, links.size())) {
            header.append(' ').append(link).append('/').append(base).append(" |");
            align.append("---:|");
        }
        header.append(" shuffled MB (ranks' counters) |");
        align.append("---:|");
        for (String link : shaped) {
            header.append(" busiest host's MB sent at ").append(link).append(" | its peak MB/s over 1 s | share of ")
                    .append(link).append(" |");
            align.append("---:|---:|---:|");
        }
        StringBuilder table = new StringBuilder(header).append('\n').append(align).append('\n');
        Map<String, List<Double>> logRatios = new LinkedHashMap<>();
        Map<String, List<Double>> logSeconds = new LinkedHashMap<>();
        Map<String, Double> peakShare = new LinkedHashMap<>();
        for (TpchQuery query : queries) {
            String name = query.workload().name();
            boolean complete = links.stream().allMatch(link -> runs.containsKey(link)
                    && runs.get(link).seconds().containsKey(name));
            StringBuilder row = new StringBuilder("| ").append(name).append(" |");
            for (String link : links) {
                Double seconds = runs.containsKey(link) ? runs.get(link).seconds().get(name) : null;
                row.append(seconds == null ? " failed |" : String.format(Locale.ROOT, " %.2f |", seconds));
                if (complete) {
                    logSeconds.computeIfAbsent(link, l -> new ArrayList<>()).add(Math.log(seconds));
                }
            }
            for (String link : links.subList(1, links.size())) {
                if (complete) {
                    double ratio = runs.get(link).seconds().get(name) / runs.get(base).seconds().get(name);
                    logRatios.computeIfAbsent(link, l -> new ArrayList<>()).add(Math.log(ratio));
                    row.append(String.format(Locale.ROOT, " %.2f |", ratio));
                } else {
                    row.append(" - |");
                }
            }
            long shuffled = runs.containsKey(base) ? runs.get(base).shuffled().getOrDefault(name, 0L) : 0;
            row.append(String.format(Locale.ROOT, " %,.1f |", shuffled / 1e6));
            for (String link : shaped) {
                LinkRun run = runs.get(link);
                double rate = run == null ? 0 : run.busiestRate(name);
                double share = rate / bytesPerSecond(link);
                peakShare.merge(link, share, Math::max);
                row.append(String.format(Locale.ROOT, " %,.1f | %,.1f | %.0f%% |", run == null ? 0
                        : run.busiestSent(name) / 1e6, rate / 1e6, 100 * share));
            }
            table.append(row).append('\n');
        }
        StringBuilder geomean = new StringBuilder("| **geometric mean** |");
        for (String link : links) {
            geomean.append(String.format(Locale.ROOT, " **%.2f** |", geometricMean(logSeconds.get(link))));
        }
        for (String link : links.subList(1, links.size())) {
            geomean.append(String.format(Locale.ROOT, " **%.2f** |", geometricMean(logRatios.get(link))));
        }
        geomean.append(" |").append(" | | |".repeat(shaped.size()));
        table.append(geomean).append('\n');

        String settings = String.format(Locale.ROOT, "TPC-H scale %s, %s, on %d simulated hosts of bin/cluster-sim "
                + "(network namespaces on this machine's %d cores, their links a bridge; HDFS with a DataNode on every "
                + "host; Hive on dmp1), datampi's DAG shape on %s ranks spread over the hosts, %s of heap in all (half "
                + "Hive's, half the ranks'). Each rate ran every query after %s warm-up run%s, %s timed; every host's "
                + "link shaped by tc to the rate (off: not shaped). A host's link counters were read every %d ms.",
                options.get("--scale"), options.get("--format"), hosts, Runtime.getRuntime().availableProcessors(),
                options.find("--procs").orElse(String.valueOf(2 * hosts)), options.get("--heap"),
                options.get("--warmup"), options.get("--warmup").equals("1") ? "" : "s", options.get("--runs"),
                SAMPLE_EVERY.toMillis());
        String answers = wrong.isEmpty()
                ? String.format(Locale.ROOT, "Answers: all %d queries at every rate equal DuckDB's over the same "
                        + "files.%n", queries.size())
                : "Answers that differ from DuckDB's:\n\n```\n" + String.join("\n", wrong) + "\n```\n";
        String body = table + "\n" + "Shuffled: what the query's vertices sent over their edges at link " + base
                + " (a host's own share stays on it). Busiest host: the host that sent the most over its link while "
                + "the query ran; its peak is its highest rate over any second of the query.\n\n" + answers;
        StringBuilder ratios = new StringBuilder();
        for (String link : links.subList(1, links.size())) {
            ratios.append(String.format(Locale.ROOT, "%s_vs_%s_geomean=%.2f%n", link, base,
                    geometricMean(logRatios.get(link))));
        }
        peakShare.forEach((link, share) -> ratios.append(String.format(Locale.ROOT, "peak_link_share_%s=%.2f%n",
                link, share)));
        return new Report(settings, body, ratios.toString());
    }

    private static double geometricMean(List<Double> logs) {
        return logs == null || logs.isEmpty() ? Double.NaN
                : Math.exp(logs.stream().mapToDouble(Double::doubleValue).average().orElseThrow());
    }

    /** A size as datampi's summary prints it (powers of 1024): "49.1" and "M" is 49.1 MiB. */
    static long bytes(String number, String unit) {
        int power = unit.isEmpty() ? 0 : "KMGTP".indexOf(unit) + 1;
        return Math.round(Double.parseDouble(number) * Math.pow(1024, power));
    }

    /** A tc rate (1gbit, 100mbit, ...) in bytes per second; "off" (unshaped) is infinite. */
    static double bytesPerSecond(String rate) {
        String lower = rate.toLowerCase(Locale.ROOT);
        if (lower.equals(UNSHAPED)) {
            return Double.POSITIVE_INFINITY;
        }
        for (Map.Entry<String, Double> unit : Map.of("gbit", 1e9, "mbit", 1e6, "kbit", 1e3).entrySet()) {
            if (lower.endsWith(unit.getKey())) {
                try {
                    return Double.parseDouble(lower.substring(0, lower.length() - unit.getKey().length()))
                            * unit.getValue() / 8;
                } catch (NumberFormatException e) {
                    break;
                }
            }
        }
        throw new IllegalArgumentException("--links takes off or rates like 1gbit or 100mbit, got '" + rate + "'");
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
        PrintStream console = System.err;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)); Writer log = Files.newBufferedWriter(out.resolve(name + ".log"))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                onLine.accept(line);
                console.println(line);
                log.write(line);
                log.write('\n');
            }
        }
        return process.waitFor();
    }
}
