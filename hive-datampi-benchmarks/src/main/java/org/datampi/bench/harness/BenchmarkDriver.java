package org.datampi.bench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * bin/tpch-bench and bin/hibench-run: runs one runner command (bin/tpch-run, bin/hibench-run's runner) per engine,
 * one engine after the other on the same data, each in its own JVM with the same total heap, samples every engine's
 * peak memory, and writes {@code OUT/timings.csv} (every run of every engine), {@code OUT/summary.md} (medians,
 * ratios over datampi, geometric means, memory, datampi's per-stage times) and {@code OUT/chart.png}.
 *
 * <p>Options: {@code --runner PATH --engines datampi,tez-yarn,tez,mr --runs N --out DIR --heap SIZE --procs P
 * --title TEXT --command TEXT [--record FILE --section NAME] -- RUNNER-ARGS...}. {@code --record} writes the report
 * into FILE between {@code <!-- NAME:begin -->} and {@code <!-- NAME:end -->}, the chart beside it in
 * benchmarks/NAME.png. Each engine runs within the same {@link TaskBudget} (--heap, --procs), passed on to the
 * runner, which starts the engine's {@link EngineBaseline}; engines.csv records each engine's peak memory and exit
 * code for {@link CostCurve}. With {@code --resume true}, an engine whose runner ended with 0 in an earlier run into
 * the same OUT with the same runner command line (its OUT/ENGINE/engine.csv and engine.command) is not run again: its
 * results are read back, and the report says when they were made. One whose runner, with that command line, was
 * stopped or failed goes on where it was ({@link WorkloadRunner#CONTINUE}): the workloads it timed are kept, its peak
 * memory is the larger of the two runs' (OUT/ENGINE/engine.peak, written as it grows). A run too long for one sitting
 * (TPC-DS at scale 10 takes hours per engine) can so be finished in two.
 */
public final class BenchmarkDriver {
    private static final String USAGE = "BenchmarkDriver --runner PATH --engines LIST --runs N --out DIR --heap SIZE "
            + "--procs P --title TEXT --command TEXT [--record FILE --section NAME] [--resume true] -- RUNNER-ARGS...";
    /** An engine's OUT/ENGINE/engine.csv: written once its runner has ended, the line engines.csv gets for it. */
    private static final String FINISHED = "engine.csv";
    /**
     * Beside it, the runner's command line, an argument a line, written as the runner starts: what --resume must find
     * the same to keep the run or to go on with it.
     */
    private static final String RUNNER_COMMAND = "engine.command";
    /** Beside it, the peak memory in MB of the engine's processes so far, written as it grows. */
    private static final String PEAK_SO_FAR = "engine.peak";
    /** How long a stopped driver waits for its runner to end before it kills it. */
    private static final long RUNNER_STOP_SECONDS = 60;

    private BenchmarkDriver() {
    }

    public static void main(String[] args) throws Exception {
        int separator = Arrays.asList(args).indexOf("--");
        String[] own = separator < 0 ? args : Arrays.copyOfRange(args, 0, separator);
        List<String> runnerArgs = separator < 0 ? List.of()
                : Arrays.asList(args).subList(separator + 1, args.length);
        RunnerOptions options = RunnerOptions.parse(USAGE, own, List.of("--runner", "--engines", "--runs", "--out",
                "--heap", "--procs", "--title", "--command", "--record", "--section", "--resume"),
                Map.of("--resume", "false"));
        boolean resume = Boolean.parseBoolean(options.get("--resume"));
        Path out = Files.createDirectories(Path.of(options.get("--out")));
        TaskBudget budget = new TaskBudget(options.getInt("--procs"), megabytes(options.get("--heap")));
        List<String> engines = Arrays.asList(options.get("--engines").split(","));
        engines.forEach(EngineBaseline::checked); // an unknown engine fails here, before any engine has run

        // The runner running now, stopped by the hook if the driver is (Ctrl-C, kill).
        AtomicReference<Process> running = new AtomicReference<>();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> Optional.ofNullable(running.get())
                .ifPresent(BenchmarkDriver::stop), "stop-runner"));
        List<EngineResults> results = new ArrayList<>();
        Map<String, Path> consoleLogs = new LinkedHashMap<>();
        List<String> resumed = new ArrayList<>();
        for (String engine : engines) {
            Path engineOut = out.resolve(engine);
            List<String> command = new ArrayList<>(List.of(options.get("--runner"), "--engine", engine,
                    "--runs", options.get("--runs"), "--out", engineOut.toString(),
                    "--procs", Integer.toString(budget.tasks()), "--heap", budget.heapMb() + "m"));
            command.addAll(runnerArgs);
            Path finished = engineOut.resolve(FINISHED);
            Path runnerCommand = engineOut.resolve(RUNNER_COMMAND);
            Path peakSoFar = engineOut.resolve(PEAK_SO_FAR);
            boolean sameCommand = resume && Files.exists(runnerCommand)
                    && Files.readAllLines(runnerCommand, StandardCharsets.UTF_8).equals(command);
            Optional<EngineResults> earlier = sameCommand
                    ? EngineResults.readFinished(engine, engineOut, FINISHED) : Optional.empty();
            if (earlier.isPresent()) {
                String when = minutes(finished);
                System.err.println("bench: --resume: " + engine + " finished its run in " + engineOut + " at " + when
                        + "; not run again");
                resumed.add(engine + "'s at " + when);
                results.add(earlier.get());
                consoleLogs.put(engine, engineOut.resolve("console.log"));
                continue;
            }
            boolean goOn = sameCommand && Files.exists(engineOut.resolve("timings.csv"));
            long earlierPeak = 0;
            if (goOn) {
                String when = minutes(engineOut.resolve("timings.csv"));
                earlierPeak = Files.exists(peakSoFar) ? Long.parseLong(Files.readString(peakSoFar).trim()) : 0;
                System.err.println("bench: --resume: the run of " + engine + " in " + engineOut + " stopped or failed "
                        + "at " + when + ": going on with it (the workloads it timed are kept)");
                resumed.add(engine + "'s stopped at " + when + " and gone on with (the workloads it had timed kept)");
            } else if (resume && Files.exists(runnerCommand) && !sameCommand) {
                System.err.println("bench: --resume: the earlier run of " + engine + " in " + engineOut + " ran with "
                        + "other options (" + runnerCommand + "): running it again");
            }
            Files.deleteIfExists(finished);
            Files.createDirectories(engineOut);
            if (!goOn) {
                // Nothing of an earlier run may pass for this one's, should this one stop before its first timing.
                clearResults(engineOut);
            }
            Files.write(runnerCommand, command, StandardCharsets.UTF_8);
            writePeak(peakSoFar, earlierPeak);
            // Progress on stderr as it happens; stdout (where Tez's local mode prints its DAG events) to a file.
            List<String> started = new ArrayList<>(command);
            started.addAll(List.of(WorkloadRunner.CONTINUE, Boolean.toString(goOn)));
            ProcessBuilder builder = new ProcessBuilder(started).inheritIO()
                    .redirectOutput(goOn ? ProcessBuilder.Redirect.appendTo(engineOut.resolve("stdout.log").toFile())
                            : ProcessBuilder.Redirect.to(engineOut.resolve("stdout.log").toFile()));
            builder.environment().put("HIVE_DATAMPI_HEAP", budget.clientHeapMb(engine) + "m");
            System.err.println("bench: " + engine + ": " + String.join(" ", started));
            Process process = builder.start();
            running.set(process);
            int exit;
            long peak;
            long peakBefore = earlierPeak;
            try (PeakMemory memory = new PeakMemory(List.of(process.toHandle()),
                    megabytes -> writePeak(peakSoFar, Math.max(peakBefore, megabytes)))) {
                exit = process.waitFor();
                peak = Math.max(earlierPeak, memory.peakMegabytes());
            }
            running.set(null);
            EngineResults engineResults = EngineResults.read(engine, engineOut, peak, exit);
            Files.write(finished, List.of(EngineResults.CSV_HEADER, engineResults.toCsv()), StandardCharsets.UTF_8);
            results.add(engineResults);
            consoleLogs.put(engine, engineOut.resolve("console.log"));
        }

        BenchmarkReport report = new BenchmarkReport(results);
        List<String> engineCsv = new ArrayList<>(List.of(EngineResults.CSV_HEADER));
        results.forEach(engine -> engineCsv.add(engine.toCsv()));
        Files.write(out.resolve("engines.csv"), engineCsv, StandardCharsets.UTF_8);
        List<String> csv = new ArrayList<>(List.of(Timing.CSV_HEADER));
        results.forEach(engine -> engine.timings().forEach(timing -> csv.add(timing.toCsv())));
        Files.write(out.resolve("timings.csv"), csv, StandardCharsets.UTF_8);
        String title = options.get("--title");
        Optional<Path> chart = BenchmarkChart.write(title, report.workloads(), results, out.resolve("chart.png"))
                ? Optional.of(out.resolve("chart.png")) : Optional.empty();

        StringBuilder settings = new StringBuilder(String.format(Locale.ROOT, "Every engine had %,d MB of heap in "
                + "all and at most %d Hive task%s at once where it can run them in separate processes:%n",
                budget.heapMb(), budget.tasks(), budget.tasks() == 1 ? "" : "s"));
        engines.forEach(engine -> settings.append("\n- ").append(budget.describe(engine)));
        if (!resumed.isEmpty()) {
            settings.append("\n\nResumed (--resume): kept from an earlier run of this command with the same options: ")
                    .append(String.join(", ", resumed)).append(".");
        }
        String body = report.markdown(consoleLogs);
        String ratios = report.ratioLines().isEmpty() ? ""
                : "```\n" + String.join("\n", report.ratioLines()) + "\n```\n";
        Files.writeString(out.resolve("summary.md"), "# " + title + "\n\n" + settings + "\n\n" + body
                + (chart.isPresent() ? "\n![chart](chart.png)\n\n" : "\n") + ratios, StandardCharsets.UTF_8);
        System.out.println(body);
        System.out.print(ratios);
        System.out.println("bench: report in " + out.resolve("summary.md")
                + chart.map(png -> ", chart in " + png).orElse(" (no engine finished a workload: no chart)"));

        if (options.find("--record").isPresent()) {
            record(Path.of(options.get("--record")), options.get("--section"), options.get("--command"),
                    settings.toString(), body, ratios, chart);
        }
        boolean failed = results.stream().anyMatch(engine -> engine.exitCode() != 0);
        System.exit(failed ? 1 : 0);
    }

    /**
     * Stops a runner the driver is stopped in the middle of (Ctrl-C, kill): asks it to end (its own hooks stop what it
     * started: YARN, a Hive session), then, after {@value #RUNNER_STOP_SECONDS} s, kills it and everything it started.
     * A Tez runner's hooks can wait for ever on a DAG client whose application master is gone.
     */
    private static void stop(Process runner) {
        if (runner.isAlive() && !ProcessTree.stop(runner, RUNNER_STOP_SECONDS)) {
            System.err.println("bench: the runner did not end within " + RUNNER_STOP_SECONDS + " s of being asked "
                    + "to: killed it and what it started");
        }
    }

    /** Deletes what a runner writes into its OUT (timings, result rows, peak memory so far), for a run from scratch. */
    private static void clearResults(Path engineOut) throws IOException {
        try (Stream<Path> files = Files.list(engineOut)) {
            for (Path file : files.filter(BenchmarkDriver::isResult).toList()) {
                Files.delete(file);
            }
        }
    }

    private static boolean isResult(Path file) {
        String name = file.getFileName().toString();
        return name.equals("timings.csv") || name.endsWith(".tsv") || name.equals(PEAK_SO_FAR);
    }

    /** When FILE was last written, to the minute. */
    private static String minutes(Path file) throws IOException {
        return Files.getLastModifiedTime(file).toInstant().truncatedTo(ChronoUnit.MINUTES).toString();
    }

    /**
     * Records the peak memory so far (the sampler's thread calls this as it grows): written whole and then moved, so
     * that a run stopped at any moment leaves the last peak, never half a number. A failure is said and does not stop
     * the run (it costs only a resumed run's peak).
     */
    private static void writePeak(Path file, long megabytes) {
        try {
            Path next = file.resolveSibling(file.getFileName() + ".next");
            Files.writeString(next, Long.toString(megabytes), StandardCharsets.UTF_8);
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            System.err.println("bench: cannot record the peak memory so far in " + file + ": " + e);
        }
    }

    /** Writes the report into the file's section, the chart (if any) into benchmarks/SECTION.png beside it. */
    public static void record(Path file, String section, String command, String settings, String body,
            String ratios, Optional<Path> chart) throws IOException {
        String image = "\n";
        if (chart.isPresent()) {
            Path chartCopy = file.toAbsolutePath().getParent().resolve("benchmarks").resolve(section + ".png");
            Files.createDirectories(chartCopy.getParent());
            Files.copy(chart.get(), chartCopy, StandardCopyOption.REPLACE_EXISTING);
            image = "\n![" + section + "](benchmarks/" + section + ".png)\n\n";
        }
        String begin = "<!-- " + section + ":begin -->";
        String end = "<!-- " + section + ":end -->";
        String block = begin + "\nMade by `" + command + "` on " + LocalDate.now() + " ("
                + Runtime.getRuntime().availableProcessors() + " cores).\n\n" + settings + "\n\n" + body
                + image + ratios + end;
        String text = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        text = from >= 0 && to > from ? text.substring(0, from) + block + text.substring(to + end.length())
                : text + "\n" + block + "\n";
        Files.writeString(file, text, StandardCharsets.UTF_8);
        System.err.println("bench: recorded in " + file + " (section " + section + ")");
    }

    /** "8g", "6144m" or "6144" (megabytes). */
    public static long megabytes(String size) {
        String value = size.trim().toLowerCase(Locale.ROOT);
        try {
            if (value.endsWith("g")) {
                return Long.parseLong(value.substring(0, value.length() - 1)) * 1024;
            }
            return Long.parseLong(value.endsWith("m") ? value.substring(0, value.length() - 1) : value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--heap must be a size such as 8g or 6144m, got '" + size + "'");
        }
    }
}
