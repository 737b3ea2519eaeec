package org.datampi.bench;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.hadoop.fs.FileUtil;
import org.datampi.shuffle.ShuffleSettings;

/**
 * bin/shuffle-bench: moves the same generated pairs through datampi-shuffle, through Hadoop MapReduce's shuffle and
 * sort, and through a raw MPI all-to-all, one after the other on this machine, and prints one table. Each path runs
 * as a user would run it (a fresh mpidrun job or JVM), and its wall time counts everything, start-up included.
 *
 * <p>Arguments: {@code --home DIR --pairs N --procs P --heap SIZE [--record FILE]}; JVM flags for the Hadoop JVM
 * come in the system property datampi.java.opts. With --record, the table replaces the section of FILE (e.g.
 * BENCHMARKS.md) between {@value #BEGIN_MARK} and {@value #END_MARK}, with the command that made it.
 */
public final class ShuffleBench {
    private static final long SEED = 42;
    static final String BEGIN_MARK = "<!-- shuffle-bench:begin -->";
    static final String END_MARK = "<!-- shuffle-bench:end -->";

    private ShuffleBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        Path home = Path.of(options.get("--home"));
        if (options.containsKey("--cluster")) {
            ClusterShuffleBench.main(home, codeSource(ShuffleBench.class), options);
            return;
        }
        long pairs = Long.parseLong(options.getOrDefault("--pairs", "10000000"));
        int procs = Integer.parseInt(options.getOrDefault("--procs", "2"));
        String heap = options.getOrDefault("--heap", "2g");
        Path examplesJar = codeSource(ShuffleBench.class);

        System.err.printf("shuffle-bench: %,d pairs, %d processes, %s heap each%n", pairs, procs, heap);
        Run datampi = run("datampi", List.of(home.resolve("bin/mpidrun").toString(), "-mode", "COM", "-O", "" + procs,
                "-A", "" + procs, "-np", "" + procs, "--heap", heap, "-jar", examplesJar.toString(),
                ShuffleBenchJob.class.getName(), "" + pairs, "" + SEED));
        Digest ours = Digest.sum(datampi.lines("a-end"));
        long shuffleStart = datampi.lines("o-start").stream().mapToLong(l -> l.getLong("epochMillis")).min()
                .orElseThrow();
        long shuffleEnd = datampi.lines("a-end").stream().mapToLong(l -> l.getLong("epochMillis")).max().orElseThrow();
        long oEnd = datampi.lines("o-end").stream().mapToLong(l -> l.getLong("epochMillis")).max().orElseThrow();
        long aStart = datampi.lines("a-start").stream().mapToLong(l -> l.getLong("epochMillis")).min().orElseThrow();

        Path work = Files.createTempDirectory("datampi-hadoop-baseline");
        List<String> hadoopCommand = new ArrayList<>(List.of("java", "-Xmx" + totalHeap(heap, procs)));
        hadoopCommand.addAll(Arrays.asList(System.getProperty("datampi.java.opts", "").trim().split("\\s+")));
        hadoopCommand.addAll(List.of("-cp", System.getProperty("java.class.path"),
                HadoopShuffleBaseline.class.getName(), "--pairs", "" + pairs, "--seed", "" + SEED, "--maps", "" + procs,
                "--reduces", "" + procs, "--local", "" + procs, work.toString()));
        hadoopCommand.removeIf(String::isEmpty);
        Run hadoop = run("hadoop", hadoopCommand);
        FileUtil.fullyDelete(work.toFile());
        BenchLine hadoopLine = hadoop.lines("hadoop").get(0);
        Digest theirs = Digest.sum(hadoop.lines("hadoop"));
        if (ours.pairs != pairs || ours.pairs != theirs.pairs || ours.hashSum != theirs.hashSum) {
            throw new IllegalStateException("The shuffles disagree: datampi " + ours + ", hadoop " + theirs
                    + ", expected " + pairs + " pairs");
        }

        Run raw = run("raw", List.of(home.resolve("bin/mpidrun").toString(), "--plain-mpi", "-np", "" + procs,
                "--heap", heap, "-jar", examplesJar.toString(), RawAllToAll.class.getName(), "" + ours.bytes,
                // messages the size of the shuffle's blocks, so that the floor is MPI's for the same messages
                String.valueOf(ShuffleSettings.DEFAULT_BLOCK_SIZE)));
        double rawSeconds = raw.lines("raw").stream().mapToLong(l -> l.getLong("nanos")).max().orElseThrow() / 1e9;
        long rawBytes = raw.lines("raw").stream().mapToLong(l -> l.getLong("bytes")).sum();
        long rawPeak = raw.lines("raw").stream().mapToLong(l -> l.getLong("peakRss")).sum();

        double oursShuffle = (shuffleEnd - shuffleStart) / 1e3;
        double hadoopShuffle = (hadoopLine.getLong("endMillis") - hadoopLine.getLong("startMillis")) / 1e3;
        double mb = ours.bytes / 1e6;
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "%,d pairs (%.0f MB of keys and values), %d processes / %d O and "
                + "%d A tasks (Hadoop: %d maps, %d reduces, %d at a time), %s heap per process (Hadoop: %s)%n%n",
                pairs, mb, procs, procs, procs, procs, procs, procs, heap, totalHeap(heap, procs)));
        table.append("| path | job wall s | shuffle s | shuffle MB/s | peak RSS MB |\n");
        table.append("|---|---:|---:|---:|---:|\n");
        table.append(row("datampi-shuffle: MPI_D.Send to sorted MPI_D.Recv", datampi.seconds, oursShuffle, mb,
                ours.peakRss));
        table.append(row("Hadoop MapReduce shuffle and sort (LocalJobRunner)", hadoop.seconds, hadoopShuffle, mb,
                theirs.peakRss));
        table.append(row("raw MPI all-to-all of the same bytes (JNI, no sort)", raw.seconds, rawSeconds,
                rawBytes / 1e6, rawPeak));
        table.append(String.format(Locale.ROOT, "%ndatampi-shuffle moves data at %.1f%% of the raw MPI all-to-all's "
                + "bandwidth; both shuffles delivered the same %,d pairs (checksum %d).%n",
                100 * (mb / oursShuffle) / (rawBytes / 1e6 / rawSeconds), ours.pairs, ours.hashSum));
        table.append(String.format(Locale.ROOT, "Where datampi's wall time goes: launch and teardown (mpirun, JVMs, "
                + "MPI_Init, MPI_Finalize) %.2f s, O phase (generate, serialize, sort blocks, send) %.2f s, between "
                + "the last O task and the first A task %.2f s, A phase (merge, Recv, checksum) %.2f s.%n",
                datampi.seconds - oursShuffle, (oEnd - shuffleStart) / 1e3, (aStart - oEnd) / 1e3,
                (shuffleEnd - aStart) / 1e3));
        String ratio = String.format(Locale.ROOT, "shuffle_vs_hadoop=%.2f", hadoop.seconds / datampi.seconds);
        String shuffleRatio = String.format(Locale.ROOT, "shuffle_phase_vs_hadoop=%.2f", hadoopShuffle / oursShuffle);
        System.out.print(table);
        System.out.println(shuffleRatio);
        System.out.println(ratio);
        if (options.containsKey("--record")) {
            record(Path.of(options.get("--record")), BEGIN_MARK, END_MARK, String.format(Locale.ROOT,
                    "Made by `bin/shuffle-bench --pairs %d --procs %d --heap %s` on %s (%d cores):%n%n%s%n```%n%s%n%s%n```%n",
                    pairs, procs, heap, LocalDate.now(), Runtime.getRuntime().availableProcessors(), table,
                    shuffleRatio, ratio));
        }
    }

    /** Replaces FILE's section between BEGIN and END with SECTION. */
    static void record(Path file, String beginMark, String endMark, String section) throws IOException {
        String text = Files.readString(file);
        int begin = text.indexOf(beginMark);
        int end = text.indexOf(endMark);
        if (begin < 0 || end < begin) {
            throw new IllegalStateException(file + " has no " + beginMark + " ... " + endMark + " section");
        }
        Files.writeString(file, text.substring(0, begin + beginMark.length()) + "\n" + section
                + text.substring(end), StandardCharsets.UTF_8);
    }

    private static String row(String name, double wall, double shuffle, double mb, long peakRss) {
        return String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.0f | %.0f |%n", name, wall, shuffle, mb / shuffle,
                peakRss / 1e6);
    }

    static Run run(String name, List<String> command) throws IOException, InterruptedException {
        System.err.println("shuffle-bench: running " + name);
        Path out = Files.createTempFile("shuffle-bench-" + name, ".out");
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        int exit = process.waitFor();
        double seconds = (System.nanoTime() - start) / 1e9;
        List<String> lines = Files.readAllLines(out);
        Files.delete(out);
        if (exit != 0) {
            throw new IllegalStateException(name + " failed with exit " + exit + ": " + String.join("\n", lines));
        }
        System.err.printf(Locale.ROOT, "shuffle-bench: %s took %.2f s%n", name, seconds);
        return new Run(seconds, lines.stream().filter(l -> l.startsWith("BENCH ")).map(BenchLine::parse).toList());
    }

    private static String totalHeap(String heap, int procs) {
        char unit = Character.toLowerCase(heap.charAt(heap.length() - 1));
        long amount = Long.parseLong(heap.substring(0, heap.length() - 1));
        return amount * procs + String.valueOf(unit);
    }

    /** The jar (or class directory) CLASS was loaded from. */
    static Path codeSource(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("Cannot locate " + type.getName() + "'s jar", e);
        }
    }

    /** Options as "--key value", and the flag --cluster. */
    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--cluster")) {
                options.put(args[i], "true");
            } else if (i + 1 < args.length) {
                options.put(args[i], args[++i]);
            }
        }
        return options;
    }

    record Run(double seconds, List<BenchLine> parsed) {
        List<BenchLine> lines(String kind) {
            List<BenchLine> matching = parsed.stream().filter(l -> l.kind.equals(kind)).toList();
            if (matching.isEmpty()) {
                throw new IllegalStateException("No '" + kind + "' result line in the run's output");
            }
            return matching;
        }
    }

    /** A result line: {@code BENCH kind key=value ...}. */
    record BenchLine(String kind, Map<String, String> values) {
        static BenchLine parse(String line) {
            String[] fields = line.split(" ");
            Map<String, String> values = new HashMap<>();
            for (int i = 2; i < fields.length; i++) {
                String[] pair = fields[i].split("=", 2);
                values.put(pair[0], pair[1]);
            }
            return new BenchLine(fields[1], values);
        }

        long getLong(String key) {
            return Long.parseLong(values.get(key));
        }
    }

    record Digest(long pairs, long bytes, long hashSum, long peakRss) {
        static Digest sum(List<BenchLine> lines) {
            return new Digest(lines.stream().mapToLong(l -> l.getLong("pairs")).sum(),
                    lines.stream().mapToLong(l -> l.getLong("bytes")).sum(),
                    lines.stream().mapToLong(l -> l.getLong("hashSum")).sum(),
                    lines.stream().mapToLong(l -> l.getLong("peakRss")).sum());
        }
    }
}
