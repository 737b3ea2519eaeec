package org.datampi.bench;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.datampi.bench.ShuffleBench.BenchLine;
import org.datampi.bench.ShuffleBench.Digest;
import org.datampi.bench.ShuffleBench.Run;
import org.datampi.runtime.ProcessMemory;
import org.datampi.shuffle.ShuffleSettings;

/**
 * bin/shuffle-bench --cluster: the shuffle between ranks on two simulated hosts (bin/cluster-sim, one rank each,
 * TCP over a bridge), with every host's link shaped by tc to each rate asked for, the way the paper's testbed was
 * limited by its 1 GigE. For each rate it runs the datampi shuffle (ShuffleBenchJob, one O and one A task per rank),
 * the raw MPI all-to-all of the same bytes, and the same pairs through Hadoop MapReduce on YARN across the same hosts
 * (HadoopShuffleBaseline: two maps and two reduces, one container at a time on each host, reducers fetching from the
 * NodeManagers' ShuffleHandler), and reports the achieved link bandwidth as a share of the shaped rate: the bytes that left the busiest host's eth0 (its kernel counters, headers included, as the shaper counts
 * them) over the time they took. Half of each rank's pairs go to the other host, so a link carries a quarter of the
 * pairs each way.
 *
 * <p>The datampi shuffle's sending window is its first O task's start to its first A task's start (every O task has
 * flushed its sends by then); its whole shuffle ends with the last A task, after the merge. Hadoop's are its first
 * map's start to its last reducer's end of shuffle (every map output fetched) and to its last reducer's end, from the
 * job's history file: neither counts YARN's start of the job. The simulated cluster (with YARN) is brought up here and
 * taken down at the end; one must not be up already.
 */
final class ClusterShuffleBench {
    static final String BEGIN_MARK = "<!-- shuffle-bench-cluster:begin -->";
    static final String END_MARK = "<!-- shuffle-bench-cluster:end -->";
    private static final List<String> HOSTS = List.of("dmp1", "dmp2");
    private static final long SEED = 42;
    /**
     * Hadoop's map-side sort buffer: large enough to hold a map's whole output (its default, 100 MB, would spill it
     * five times and merge), so that Hadoop's row is its best case.
     */
    private static final int HADOOP_SORT_MB = 800;
    /** The raw all-to-all's messages: the size of the shuffle's blocks, so that its floor is MPI's for the same. */
    private static final int RAW_BLOCK_BYTES = ShuffleSettings.DEFAULT_BLOCK_SIZE;

    private final Path home;
    private final Path examplesJar;
    private final Path hostfile;

    private ClusterShuffleBench(Path home, Path examplesJar) {
        this.home = requireNonNull(home, "home is null");
        this.examplesJar = requireNonNull(examplesJar, "examplesJar is null");
        this.hostfile = home.resolve("target/cluster-sim/hostfile");
    }

    static void main(Path home, Path examplesJar, Map<String, String> options) throws Exception {
        long pairs = Long.parseLong(options.getOrDefault("--pairs", "250000"));
        int valueBytes = Integer.parseInt(options.getOrDefault("--value-bytes", "4000"));
        String heap = options.getOrDefault("--heap", "2g");
        List<String> links = List.of(options.getOrDefault("--links", "1gbit,10gbit").split(","));
        ClusterShuffleBench bench = new ClusterShuffleBench(home, examplesJar);

        System.err.printf("shuffle-bench: %,d pairs with %d-byte values between 2 simulated hosts, links %s%n",
                pairs, valueBytes, links);
        bench.clusterSim("up", "--hosts", String.valueOf(HOSTS.size()), "--slots", "1", "--yarn");
        StringBuilder rows = new StringBuilder();
        List<String> shares = new ArrayList<>();
        List<String> ratios = new ArrayList<>();
        long shuffleBytes = 0;
        try {
            for (String link : links) {
                bench.clusterSim("link", link);
                DatampiRun datampi = bench.datampi(pairs, valueBytes, heap);
                shuffleBytes = datampi.sending.payloadBytes;
                Measured raw = bench.raw(shuffleBytes, heap);
                HadoopRun hadoop = bench.hadoop(pairs, valueBytes, heap, datampi.digest);
                double rate = bytesPerSecond(link);
                rows.append(datampi.sending.row(link, "datampi-shuffle, sending (first O start to first A start)",
                        rate));
                rows.append(datampi.whole.row(link, "datampi-shuffle, whole shuffle (to the last A end)", rate));
                rows.append(raw.row(link, "raw MPI all-to-all of the same bytes (JNI, no sort)", rate));
                rows.append(hadoop.fetching.row(link, "Hadoop MapReduce on YARN, first map start to every map output "
                        + "fetched", rate));
                rows.append(hadoop.whole.row(link, "Hadoop MapReduce on YARN, whole shuffle (to the last reduce end)",
                        rate));
                shares.add(String.format(Locale.ROOT, "link_share_%s=%.2f", link, datampi.sending.share(rate)));
                ratios.add(String.format(Locale.ROOT, "hadoop_vs_datampi_%s=%.2f", link,
                        hadoop.whole.seconds / datampi.whole.seconds));
            }
        } finally {
            bench.clusterSim("link", "off");
            bench.clusterSim("down");
        }
        String table = String.format(Locale.ROOT, "%,d pairs (%.0f MB of keys and values, values of %d bytes), "
                + "2 hosts with one rank each / 2 O and 2 A tasks, %s heap per rank (Hadoop: 2 maps and 2 reduces, "
                + "one container at a time per host, %s heap, io.sort.mb %d); each link carries about a quarter "
                + "of the bytes each way%n%n"
                + "| link | path | s | busiest link MB/s | share of the link |%n|---|---|---:|---:|---:|%n%s",
                pairs, shuffleBytes / 1e6, valueBytes, heap, heap, HADOOP_SORT_MB, rows);
        System.out.print(table);
        shares.forEach(System.out::println);
        ratios.forEach(System.out::println);
        if (options.containsKey("--record")) {
            ShuffleBench.record(Path.of(options.get("--record")), BEGIN_MARK, END_MARK, String.format(Locale.ROOT,
                    "Made by `bin/shuffle-bench --cluster --pairs %d --value-bytes %d --heap %s --links %s` on %s "
                            + "(%d cores):%n%n%s%n```%n%s%n```%n", pairs, valueBytes, heap, String.join(",", links),
                    LocalDate.now(), Runtime.getRuntime().availableProcessors(), table,
                    String.join("\n", shares) + "\n" + String.join("\n", ratios)));
        }
    }

    /** The datampi shuffle across the hosts: one O and one A task per rank. */
    private DatampiRun datampi(long pairs, int valueBytes, String heap) throws IOException, InterruptedException {
        long[] before = txBytes();
        Run run = onDmp1("datampi", "bin/mpidrun", "-f", hostfile.toString(), "-mode", "COM", "-O", "2", "-A", "2",
                "-np", "2", "--heap", heap, "-jar", examplesJar.toString(), ShuffleBenchJob.class.getName(),
                String.valueOf(pairs), String.valueOf(SEED), String.valueOf(valueBytes));
        long wire = busiest(before, txBytes());
        long oStart = run.lines("o-start").stream().mapToLong(l -> l.getLong("epochMillis")).min().orElseThrow();
        long aStart = run.lines("a-start").stream().mapToLong(l -> l.getLong("epochMillis")).min().orElseThrow();
        long aEnd = run.lines("a-end").stream().mapToLong(l -> l.getLong("epochMillis")).max().orElseThrow();
        long received = run.lines("a-end").stream().mapToLong(l -> l.getLong("pairs")).sum();
        if (received != pairs) {
            throw new IllegalStateException("The A tasks received " + received + " pairs of " + pairs);
        }
        long payload = run.lines("a-end").stream().mapToLong(l -> l.getLong("bytes")).sum();
        return new DatampiRun(new Measured((aStart - oStart) / 1e3, wire, payload),
                new Measured((aEnd - oStart) / 1e3, wire, payload), Digest.sum(run.lines("a-end")));
    }

    /**
     * The same pairs through Hadoop MapReduce on the cluster's YARN: the job client on dmp1, the classpath of the
     * cluster's daemons and its configuration (target/cluster-sim/hadoop-conf). What its reducers received must
     * equal what datampi's A tasks did.
     */
    private HadoopRun hadoop(long pairs, int valueBytes, String heap, Digest datampi)
            throws IOException, InterruptedException {
        String javaOpts = "-Xmx" + heap + " @" + home.resolve("conf/jvm.args");
        long[] before = txBytes();
        // The client logs into dmp1's logs directory, as the cluster's daemons do (Hadoop's log4j.properties there).
        Run run = onDmp1("hadoop", "java", "-Xmx512m", "@" + home.resolve("conf/jvm.args"),
                "-Dhadoop.log.file=" + home.resolve("logs/shuffle-bench-hadoop.log"), "-cp",
                home.resolve("target/cluster-sim/hadoop-conf") + ":" + examplesJar + ":"
                        + ShuffleBench.codeSource(ProcessMemory.class) + ":"
                        + home.resolve("hadoop-daemons/target/lib") + "/*",
                HadoopShuffleBaseline.class.getName(), "--pairs", String.valueOf(pairs), "--seed",
                String.valueOf(SEED), "--maps", "2", "--reduces", "2", "--value-bytes", String.valueOf(valueBytes),
                "--yarn", "--conf", "mapreduce.task.io.sort.mb=" + HADOOP_SORT_MB,
                "--conf", "mapreduce.map.java.opts=" + javaOpts, "--conf", "mapreduce.reduce.java.opts=" + javaOpts);
        long wire = busiest(before, txBytes());
        BenchLine line = run.lines("hadoop").get(0);
        Digest hadoop = Digest.sum(run.lines("hadoop"));
        if (hadoop.pairs() != datampi.pairs() || hadoop.hashSum() != datampi.hashSum()) {
            throw new IllegalStateException("The shuffles disagree: datampi " + datampi + ", hadoop " + hadoop);
        }
        long firstMap = line.getLong("firstMapMillis");
        return new HadoopRun(new Measured((line.getLong("fetchedMillis") - firstMap) / 1e3, wire, hadoop.bytes()),
                new Measured((line.getLong("lastReduceMillis") - firstMap) / 1e3, wire, hadoop.bytes()));
    }

    /** The raw all-to-all of BYTES across the hosts: its time between the barriers around the exchange. */
    private Measured raw(long bytes, String heap) throws IOException, InterruptedException {
        long[] before = txBytes();
        Run run = onDmp1("raw", "bin/mpidrun", "-f", hostfile.toString(), "--plain-mpi", "-np", "2", "--heap", heap,
                "-jar", examplesJar.toString(), RawAllToAll.class.getName(), String.valueOf(bytes),
                String.valueOf(RAW_BLOCK_BYTES));
        long wire = busiest(before, txBytes());
        double seconds = run.lines("raw").stream().mapToLong(l -> l.getLong("nanos")).max().orElseThrow() / 1e9;
        return new Measured(seconds, wire, run.lines("raw").stream().mapToLong(l -> l.getLong("bytes")).sum());
    }

    /** Every host's transmitted bytes on eth0, from its kernel's counters. */
    private long[] txBytes() throws IOException, InterruptedException {
        long[] counters = new long[HOSTS.size()];
        for (int i = 0; i < counters.length; i++) {
            Process process = new ProcessBuilder(home.resolve("bin/cluster-sim").toString(), "exec", HOSTS.get(i),
                    "cat", "/sys/class/net/eth0/statistics/tx_bytes").redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (process.waitFor() != 0) {
                throw new IllegalStateException("Cannot read " + HOSTS.get(i) + "'s eth0 counters");
            }
            counters[i] = Long.parseLong(out);
        }
        return counters;
    }

    private static long busiest(long[] before, long[] after) {
        long most = 0;
        for (int i = 0; i < before.length; i++) {
            most = Math.max(most, after[i] - before[i]);
        }
        return most;
    }

    private Run onDmp1(String name, String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(home.resolve("bin/cluster-sim").toString(), "exec", "dmp1"));
        line.addAll(List.of(command));
        return ShuffleBench.run(name, line);
    }

    private void clusterSim(String... arguments) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(home.resolve("bin/cluster-sim").toString()));
        line.addAll(List.of(arguments));
        Process process = new ProcessBuilder(line).inheritIO().start();
        if (process.waitFor() != 0) {
            throw new IllegalStateException("bin/cluster-sim " + String.join(" ", arguments) + " failed");
        }
    }

    /** A tc rate (1gbit, 100mbit, ...) in bytes per second. */
    static double bytesPerSecond(String rate) {
        String lower = rate.toLowerCase(Locale.ROOT);
        for (Map.Entry<String, Double> unit : Map.of("gbit", 1e9, "mbit", 1e6, "kbit", 1e3).entrySet()) {
            if (lower.endsWith(unit.getKey())) {
                return Double.parseDouble(lower.substring(0, lower.length() - unit.getKey().length()))
                        * unit.getValue() / 8;
            }
        }
        throw new IllegalArgumentException("--links takes rates like 1gbit or 100mbit, got '" + rate + "'");
    }

    /** One path's run: its time, the bytes that left the busiest host, and the pairs' bytes it moved in all. */
    private record Measured(double seconds, long wireBytes, long payloadBytes) {
        double share(double rate) {
            return wireBytes / seconds / rate;
        }

        String row(String link, String path, double rate) {
            return String.format(Locale.ROOT, "| %s | %s | %.2f | %.0f | %.0f%% |%n", link, path, seconds,
                    wireBytes / seconds / 1e6, 100 * share(rate));
        }
    }

    /**
     * The datampi shuffle's run timed two ways (while its O tasks send, and to its last A task's end) and what its A
     * tasks received.
     */
    private record DatampiRun(Measured sending, Measured whole, Digest digest) {
    }

    /** Hadoop's run timed two ways: to every map output fetched, and to its last reduce's end. */
    private record HadoopRun(Measured fetching, Measured whole) {
    }
}
