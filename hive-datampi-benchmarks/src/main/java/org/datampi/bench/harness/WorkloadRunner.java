package org.datampi.bench.harness;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.commons.io.output.TeeOutputStream;
import org.apache.hadoop.hive.common.io.SessionStream;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.datampi.hive.session.QuerySession;

/**
 * Runs workloads on one engine in one Hive session (a warm JVM, as a user's session is): each workload
 * {@code runs} times, its result rows written to {@code OUT/<workload>.tsv} (tab-separated, no header), every run's
 * time to {@code OUT/timings.csv} as it ends, and Hive's console (progress, datampi's per-stage times) to stderr and
 * {@code OUT/console.log}, where each run (and each warm-up run) begins with a {@link #RUN_MARKER} line.
 *
 * <p>A runner told to go on with an interrupted run ({@link #CONTINUE}, which BenchmarkDriver's --resume passes when
 * the same runner command did not finish) keeps each workload whose timed runs the earlier one wrote to
 * OUT/timings.csv, all of them successful, and runs the others in a new session, its console appended to the log: the
 * hours of TPC-DS at scale 10 on one engine need not fit in one sitting.
 */
public final class WorkloadRunner {
    public static final String RUN_MARKER = "bench: begin ";
    /** The runners' option that goes on with an interrupted run into the same OUT (true or false). */
    public static final String CONTINUE = "--continue";

    private final Path stateDir;
    private final String engine;
    private final TaskBudget budget;
    private final Map<String, String> settings;
    private final Path out;
    private final boolean continueInterrupted;

    /** The checkout (bin/, tpch-queries/, hibench-workloads/): the datampi.home property the scripts set. */
    public static Path home() {
        return Path.of(System.getProperty("datampi.home", "."));
    }

    /** Where the metastore and warehouse are unless --warehouse says: as bin/hive-datampi decides it. */
    public static String defaultStateDir() {
        String state = System.getenv("HIVE_DATAMPI_STATE");
        return state != null ? state : home().resolve("state").toString();
    }

    /**
     * @param budget the tasks at once and the heap the engine runs within (see {@link EngineBaseline})
     * @param settings the session's settings on top of the engine's baseline (e.g. the user's --hiveconf)
     * @param continueInterrupted whether to keep the workloads an earlier, interrupted run into OUT timed
     */
    public WorkloadRunner(Path stateDir, String engine, TaskBudget budget, Map<String, String> settings, Path out,
            boolean continueInterrupted) {
        this.stateDir = requireNonNull(stateDir, "stateDir is null");
        this.engine = EngineBaseline.checked(engine);
        this.budget = requireNonNull(budget, "budget is null");
        this.settings = Map.copyOf(settings);
        this.out = requireNonNull(out, "out is null");
        this.continueInterrupted = continueInterrupted;
    }

    /** A runner for the runners' options (--warehouse, --engine, --procs, --heap, --out, --continue) and settings. */
    public static WorkloadRunner of(RunnerOptions options, Map<String, String> settings) {
        return new WorkloadRunner(Path.of(options.get("--warehouse")), options.get("--engine"), budget(options),
                settings, Path.of(options.get("--out")), Boolean.parseBoolean(options.get(CONTINUE)));
    }

    /** The options every runner takes besides its own: the budget's, where to write and whether to continue. */
    public static List<String> commonOptions() {
        return List.of("--engine", "--out", "--warehouse", "--procs", "--heap", CONTINUE);
    }

    /** --procs and --heap as the runners take them: the tasks at once and the total heap of a side-by-side run. */
    private static TaskBudget budget(RunnerOptions options) {
        return new TaskBudget(options.getInt("--procs"), BenchmarkDriver.megabytes(options.get("--heap")));
    }

    /**
     * The defaults of --procs (this machine's cores) and --heap (the same as bin/tpch-bench's and hibench-run's), of
     * --warehouse (as bin/hive-datampi decides it) and of --continue (false).
     */
    public static Map<String, String> commonDefaults() {
        return Map.of("--procs", Integer.toString(Runtime.getRuntime().availableProcessors()), "--heap", "8g",
                "--warehouse", defaultStateDir(), CONTINUE, "false");
    }

    /**
     * Runs setup statements (USE, DDL; untimed), then every workload: first {@code warmups} runs that are not
     * recorded (JIT compilation, caches, the engine's session start), then {@code runs} timed ones. Returns how many
     * runs failed; a failed run is recorded with status "failed" and the next one goes on.
     */
    public int run(List<String> setup, List<Workload> workloads, int warmups, int runs) throws IOException {
        return run(setup, hive -> { }, workloads, warmups, runs);
    }

    /** What must hold of the session before the workloads run (the data loaded); throws naming what does not. */
    @FunctionalInterface
    public interface Precondition {
        void check(QuerySession hive) throws IOException, CommandProcessorException;
    }

    /** As {@link #run(List, List, int, int)}, checking the precondition after the setup statements. */
    public int run(List<String> setup, Precondition precondition, List<Workload> workloads, int warmups, int runs)
            throws IOException {
        Files.createDirectories(out);
        Path timings = out.resolve("timings.csv");
        List<String> kept = continueInterrupted && Files.exists(timings)
                ? keptRuns(Files.readAllLines(timings, StandardCharsets.UTF_8), workloads, runs) : List.of();
        Set<String> done = kept.stream().map(line -> Timing.fromCsv(line).workload()).collect(Collectors.toSet());
        List<String> header = new ArrayList<>(List.of(Timing.CSV_HEADER));
        header.addAll(kept);
        Files.write(timings, header, StandardCharsets.UTF_8);
        int failures = 0;
        OpenOption[] logMode = continueInterrupted ? new OpenOption[] {StandardOpenOption.CREATE,
            StandardOpenOption.APPEND} : new OpenOption[0];
        try (OutputStream log = Files.newOutputStream(out.resolve("console.log"), logMode);
                EngineBaseline baseline = EngineBaseline.start(engine, budget, out.resolve("engine"))) {
            SessionStream console = new SessionStream(new TeeOutputStream(System.err, log), true,
                    StandardCharsets.UTF_8.name());
            SessionStream ignored = new SessionStream(OutputStream.nullOutputStream());
            Map<String, String> sessionSettings = new LinkedHashMap<>(baseline.settings());
            sessionSettings.putAll(settings);
            if (continueInterrupted) {
                // A marker that is no workload's run ends the last kept run's lines in console.log (lastRun).
                console.println(RUN_MARKER + "(the session that goes on with the interrupted run)");
            }
            console.println("bench: " + budget.describe(engine));
            if (continueInterrupted) {
                console.println("bench: " + CONTINUE + ": going on with the interrupted run in " + out + ": "
                        + done.size() + " of " + workloads.size() + " workloads kept from it");
            }
            try (QuerySession hive = QuerySession.start(stateDir, sessionSettings, ignored, console)) {
                for (String statement : setup) {
                    hive.execute(statement);
                }
                precondition.check(hive);
                for (Workload workload : workloads) {
                    if (done.contains(workload.name())) {
                        continue;
                    }
                    for (int warmup = 1; warmup <= warmups; warmup++) {
                        console.println(RUN_MARKER + workload.name() + " warm-up " + warmup);
                        console.println("bench: " + workload.name() + " warm-up " + warmup + " on " + engine + ": "
                                + runOnce(hive, workload, 0, console).describe());
                    }
                    for (int run = 1; run <= runs; run++) {
                        console.println(RUN_MARKER + workload.name() + " run " + run);
                        Timing timing = runOnce(hive, workload, run, console);
                        failures += timing.ok() ? 0 : 1;
                        Files.writeString(timings, timing.toCsv() + "\n", StandardCharsets.UTF_8,
                                StandardOpenOption.APPEND);
                        console.println("bench: " + workload.name() + " run " + run + " on " + engine + ": "
                                + timing.describe());
                    }
                }
            } catch (CommandProcessorException e) {
                throw new IOException("A setup statement failed on " + engine + ": " + e.getMessage(), e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while starting " + engine, e);
        }
        // In the workloads' order, as a run from scratch writes it: kept runs of a failed run come before its reruns.
        List<String> written = Files.readAllLines(timings, StandardCharsets.UTF_8);
        List<String> ordered = new ArrayList<>(List.of(Timing.CSV_HEADER));
        ordered.addAll(inWorkloadOrder(written, workloads));
        Files.write(timings, ordered, StandardCharsets.UTF_8);
        return failures;
    }

    /**
     * Of an interrupted run's timings.csv LINES, the runs to keep: those of each of WORKLOADS that has its RUNS timed
     * runs there, every one successful (a workload with fewer, or a failed one, runs again, all its runs). A line cut
     * short by a kill is not a run.
     */
    static List<String> keptRuns(List<String> lines, List<Workload> workloads, int runs) {
        Map<String, List<Timing>> byWorkload = timingsByWorkload(lines);
        List<String> kept = new ArrayList<>();
        for (Workload workload : workloads) {
            List<Timing> done = byWorkload.getOrDefault(workload.name(), List.of());
            Set<Integer> okRuns = done.stream().filter(Timing::ok).map(Timing::run).collect(Collectors.toSet());
            if (done.size() == runs && okRuns.size() == runs) {
                done.forEach(timing -> kept.add(timing.toCsv()));
            }
        }
        return kept;
    }

    /** Every run of a timings.csv's LINES, those of each of WORKLOADS together, in the workloads' order. */
    private static List<String> inWorkloadOrder(List<String> lines, List<Workload> workloads) {
        Map<String, List<Timing>> byWorkload = timingsByWorkload(lines);
        List<String> ordered = new ArrayList<>();
        for (Workload workload : workloads) {
            byWorkload.getOrDefault(workload.name(), List.of()).forEach(timing -> ordered.add(timing.toCsv()));
        }
        return ordered;
    }

    /** A timings.csv's LINES (its header first) by workload. A line cut short by a kill is not a run. */
    private static Map<String, List<Timing>> timingsByWorkload(List<String> lines) {
        Map<String, List<Timing>> byWorkload = new LinkedHashMap<>();
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            try {
                Timing timing = Timing.fromCsv(line);
                byWorkload.computeIfAbsent(timing.workload(), name -> new ArrayList<>()).add(timing);
            } catch (IllegalArgumentException e) {
                // A partial last line (NumberFormatException is one): skipped.
            }
        }
        return byWorkload;
    }

    /**
     * The console lines of the workload's last timed run in a runner's console.log: from its {@link #RUN_MARKER}
     * line to the next one.
     */
    static List<String> lastRun(List<String> consoleLines, String workload) {
        List<String> lines = new ArrayList<>();
        boolean inside = false;
        for (String line : consoleLines) {
            if (line.startsWith(RUN_MARKER)) {
                inside = line.startsWith(RUN_MARKER + workload + " run ");
                if (inside) {
                    lines.clear();
                }
            } else if (inside) {
                lines.add(line);
            }
        }
        return lines;
    }

    private Timing runOnce(QuerySession hive, Workload workload, int run, SessionStream console) throws IOException {
        long start = System.nanoTime();
        List<String> rows = new ArrayList<>();
        boolean ok = true;
        double compileSeconds = 0;
        try {
            for (String statement : workload.statements()) {
                rows.addAll(hive.execute(statement));
                compileSeconds += hive.lastCompileSeconds();
            }
        } catch (CommandProcessorException e) {
            ok = false;
            console.println("bench: " + workload.name() + " failed on " + engine + ": " + e.getMessage());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (ok && workload.output().isPresent()) {
            try {
                rows = hive.execute(workload.output().get());
            } catch (CommandProcessorException e) {
                ok = false;
                console.println("bench: reading the output of " + workload.name() + " failed: " + e.getMessage());
            }
        }
        Files.write(out.resolve(workload.name() + ".tsv"), rows, StandardCharsets.UTF_8);
        return new Timing(workload.name(), engine, run, seconds, rows.size(), ok, compileSeconds);
    }
}
