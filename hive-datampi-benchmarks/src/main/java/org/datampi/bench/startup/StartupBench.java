package org.datampi.bench.startup;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.datampi.bench.harness.BenchmarkDriver;
import org.datampi.bench.harness.RunnerOptions;

/**
 * How soon Hive on datampi answers, with the class-data archives bin/setup makes (target/cds) and without them
 * (DATAMPI_CLASS_DATA=off; the JDK's own archive maps in both): a shell's {@code SELECT 1} (bin/hive-datampi from
 * start to end: the JVM, Hive's session, the metastore), and a shell whose one query runs a stage on a new group of
 * ranks (its whole time, and the group's launch as the stage's console line gives it). Each run does both modes, one after the other, the first mode
 * alternating from run to run, so that a drift of the machine falls on both; one untimed run of each first. The
 * shells share a warehouse of their own under OUT, and each starts once the last one's ranks have ended.
 *
 * <p>Options: {@code --home DIR --runs N --out DIR --command TEXT [--record FILE --section NAME]}.
 */
public final class StartupBench {
    private static final String USAGE = "StartupBench --home DIR --runs N --out DIR --command TEXT "
            + "[--record FILE --section NAME]";
    static final String SELECT_ONE = "SELECT 1;";
    static final String ONE_STAGE = "SET hive.fetch.task.conversion=none; "
            + "SELECT count(*) FROM (SELECT posexplode(split(space(999), ' '))) t;";
    /** The stage's line: "datampi: Stage-1 job_... 5.07 s: submit 0.65 s, launch 2.85 s, tasks ...". */
    private static final Pattern LAUNCH = Pattern.compile("datampi: Stage-\\d+ \\S+ [\\d.]+ s: submit [\\d.]+ s, "
            + "launch ([\\d.]+) s");

    /** With the archives or without. */
    enum Mode {
        WITHOUT("without the archives", "without"), WITH("with the archives", "with");

        final String label;
        final String key;

        Mode(String label, String key) {
            this.label = label;
            this.key = key;
        }
    }

    /** What is timed, in seconds. */
    enum Measure {
        SHELL("`SELECT 1` in a new shell", "shell_select_1"),
        STAGE_QUERY("a one-stage query in a new shell", "one_stage_query"),
        LAUNCH("that stage's group launch", "group_launch");

        final String label;
        final String key;

        Measure(String label, String key) {
            this.label = label;
            this.key = key;
        }
    }

    private final Path home;
    private final Path out;

    private StartupBench(Path home, Path out) {
        this.home = requireNonNull(home, "home is null");
        this.out = requireNonNull(out, "out is null");
    }

    public static void main(String[] args) throws Exception {
        RunnerOptions options = RunnerOptions.parse(USAGE, args, List.of("--home", "--runs", "--out", "--command",
                "--record", "--section"), Map.of("--runs", "5", "--section", "startup"));
        Path out = Files.createDirectories(Path.of(options.get("--out")));
        for (String archive : List.of("hive-cli.jsa", "rank.jsa")) {
            Path file = Path.of(options.get("--home"), "target/cds", archive);
            if (!Files.isRegularFile(file)) {
                throw new IllegalStateException(file + " is missing: bin/setup makes it (its training's log is "
                        + "target/class-data-training.log)");
            }
        }
        StartupBench bench = new StartupBench(Path.of(options.get("--home")), out);
        int runs = options.getInt("--runs");
        if (runs < 1) {
            throw new IllegalArgumentException("--runs must be at least 1, got " + runs);
        }
        Map<Mode, Map<Measure, List<Double>>> seconds = new EnumMap<>(Mode.class);
        for (Mode mode : Mode.values()) {
            seconds.put(mode, new EnumMap<>(Measure.class));
            bench.run(mode, 0, new EnumMap<>(Measure.class));
        }
        for (int run = 1; run <= runs; run++) {
            List<Mode> order = run % 2 == 1 ? List.of(Mode.WITHOUT, Mode.WITH) : List.of(Mode.WITH, Mode.WITHOUT);
            for (Mode mode : order) {
                bench.run(mode, run, seconds.get(mode));
            }
        }
        List<String> csv = new ArrayList<>(List.of("mode,measure,run,seconds"));
        seconds.forEach((mode, byMeasure) -> byMeasure.forEach((measure, values) -> {
            for (int run = 0; run < values.size(); run++) {
                csv.add(String.format(Locale.ROOT, "%s,%s,%d,%.3f", mode.key, measure.key, run + 1, values.get(run)));
            }
        }));
        Files.write(out.resolve("runs.csv"), csv, StandardCharsets.UTF_8);
        StartupReport report = new StartupReport(seconds);
        String settings = String.format(Locale.ROOT, "Medians of %d runs of each, the modes alternating, after one "
                + "untimed run of each (every run in runs.csv). A new `bin/hive-datampi` each time, on a warehouse of "
                + "the bench's own, started once the last one's ranks had ended; its stage on a new group of the "
                + "session's default ranks. Without the archives is `DATAMPI_CLASS_DATA=off`: the JDK's own class-data "
                + "archive still maps, the two of `bin/setup` do not.", runs);
        Files.writeString(out.resolve("summary.md"), "# Hive on datampi's start, with and without class-data "
                + "archives\n\n" + settings + "\n\n" + report.table() + "\n```\n" + report.ratioLines() + "```\n",
                StandardCharsets.UTF_8);
        System.out.println(report.table());
        System.out.print(report.ratioLines());
        if (options.find("--record").isPresent()) {
            BenchmarkDriver.record(Path.of(options.get("--record")), options.get("--section"),
                    options.get("--command"), settings, report.table(), "```\n" + report.ratioLines() + "```\n",
                    Optional.empty());
        }
    }

    /** One run of MODE: both shells, their times added to SECONDS (run 0: untimed, SECONDS is thrown away). */
    private void run(Mode mode, int run, Map<Measure, List<Double>> seconds) throws Exception {
        String name = mode.name().toLowerCase(Locale.ROOT) + "-" + run;
        Shell select = shell(mode, name + "-select-1", SELECT_ONE);
        if (!select.output().lines().anyMatch(line -> line.equals("1"))) {
            throw new IllegalStateException("SELECT 1 did not answer 1 (" + mode.label + "); see " + select.log());
        }
        Shell stage = shell(mode, name + "-stage", ONE_STAGE);
        if (!stage.output().lines().anyMatch(line -> line.equals("1000"))) {
            throw new IllegalStateException("the one-stage query did not answer 1000 (" + mode.label + "); see "
                    + stage.log());
        }
        double launch = launchSeconds(stage.output()).orElseThrow(() -> new IllegalStateException(
                "no datampi stage line with its launch time in " + stage.log()));
        seconds.computeIfAbsent(Measure.SHELL, m -> new ArrayList<>()).add(select.seconds());
        seconds.computeIfAbsent(Measure.STAGE_QUERY, m -> new ArrayList<>()).add(stage.seconds());
        seconds.computeIfAbsent(Measure.LAUNCH, m -> new ArrayList<>()).add(launch);
        System.err.printf(Locale.ROOT, "startup: run %d %s: SELECT 1 %.2f s, one-stage query %.2f s (launch %.2f s)%n",
                run, mode.label, select.seconds(), stage.seconds(), launch);
    }

    /** The launch seconds of the first datampi stage on CONSOLE. */
    static Optional<Double> launchSeconds(String console) {
        Matcher matcher = LAUNCH.matcher(console);
        return matcher.find() ? Optional.of(Double.parseDouble(matcher.group(1))) : Optional.empty();
    }

    private record Shell(double seconds, String output, Path log) {
    }

    /** bin/hive-datampi -e STATEMENTS in MODE; it must end with 0 within 5 minutes. */
    private Shell shell(Mode mode, String name, String statements) throws IOException, InterruptedException,
            ExecutionException {
        Path log = out.resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/hive-datampi").toString(), "--warehouse",
                out.resolve("state").toString(), "-e", statements).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().remove("DATAMPI_CLASS_DATA_DUMP");
        if (mode == Mode.WITHOUT) {
            builder.environment().put("DATAMPI_CLASS_DATA", "off");
        } else {
            builder.environment().remove("DATAMPI_CLASS_DATA");
        }
        long start = System.nanoTime();
        Process process = builder.start();
        // Its ranks, mpirun and mpidrun, seen while it runs: the next shell starts only once they have ended too.
        Set<ProcessHandle> started = new HashSet<>();
        long deadline = start + TimeUnit.MINUTES.toNanos(5);
        while (!process.waitFor(100, TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(started::add);
            if (System.nanoTime() > deadline) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new IllegalStateException(name + " did not end within 5 minutes; see " + log);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        for (ProcessHandle child : started) {
            try {
                child.onExit().get(30, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new IllegalStateException(name + ": " + child.pid() + " (" + child.info().commandLine()
                        .orElse("?") + ") was still running 30 s after the shell ended; see " + log, e);
            }
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(name + " exited " + process.exitValue() + "; see " + log);
        }
        return new Shell(seconds, Files.readString(log, StandardCharsets.UTF_8), log);
    }
}
