package org.datampi.bench.harness;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.io.output.TeeOutputStream;
import org.apache.hadoop.hive.common.io.SessionStream;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.datampi.hive.session.QuerySession;

/**
 * Runs workloads on one engine in one Hive session (a warm JVM, as a user's session is): each workload
 * {@code runs} times, its result rows written to {@code OUT/<workload>.tsv} (tab-separated, no header), every run's
 * time to {@code OUT/timings.csv}, and Hive's console (progress, datampi's per-stage times) to stderr and
 * {@code OUT/console.log}, where each run (and each warm-up run) begins with a {@link #RUN_MARKER} line.
 */
public final class WorkloadRunner {
    public static final String RUN_MARKER = "bench: begin ";

    private final Path stateDir;
    private final String engine;
    private final TaskBudget budget;
    private final Map<String, String> settings;
    private final Path out;

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
     */
    public WorkloadRunner(Path stateDir, String engine, TaskBudget budget, Map<String, String> settings, Path out) {
        this.stateDir = requireNonNull(stateDir, "stateDir is null");
        this.engine = EngineBaseline.checked(engine);
        this.budget = requireNonNull(budget, "budget is null");
        this.settings = Map.copyOf(settings);
        this.out = requireNonNull(out, "out is null");
    }

    /** --procs and --heap as the runners take them: the tasks at once and the total heap of a side-by-side run. */
    public static TaskBudget budget(RunnerOptions options) {
        return new TaskBudget(options.getInt("--procs"), BenchmarkDriver.megabytes(options.get("--heap")));
    }

    /** The defaults of --procs (this machine's cores) and --heap: the same as bin/tpch-bench's and hibench-run's. */
    public static Map<String, String> budgetDefaults() {
        return Map.of("--procs", Integer.toString(Runtime.getRuntime().availableProcessors()), "--heap", "8g");
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
        List<String> timings = new ArrayList<>(List.of(Timing.CSV_HEADER));
        int failures = 0;
        try (OutputStream log = Files.newOutputStream(out.resolve("console.log"));
                EngineBaseline baseline = EngineBaseline.start(engine, budget, out.resolve("engine"))) {
            SessionStream console = new SessionStream(new TeeOutputStream(System.err, log), true,
                    StandardCharsets.UTF_8.name());
            SessionStream ignored = new SessionStream(OutputStream.nullOutputStream());
            Map<String, String> sessionSettings = new LinkedHashMap<>(baseline.settings());
            sessionSettings.putAll(settings);
            console.println("bench: " + budget.describe(engine));
            try (QuerySession hive = QuerySession.start(stateDir, sessionSettings, ignored, console)) {
                for (String statement : setup) {
                    hive.execute(statement);
                }
                precondition.check(hive);
                for (Workload workload : workloads) {
                    for (int warmup = 1; warmup <= warmups; warmup++) {
                        console.println(RUN_MARKER + workload.name() + " warm-up " + warmup);
                        console.println("bench: " + workload.name() + " warm-up " + warmup + " on " + engine + ": "
                                + runOnce(hive, workload, 0, console).describe());
                    }
                    for (int run = 1; run <= runs; run++) {
                        console.println(RUN_MARKER + workload.name() + " run " + run);
                        Timing timing = runOnce(hive, workload, run, console);
                        failures += timing.ok() ? 0 : 1;
                        timings.add(timing.toCsv());
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
        Files.write(out.resolve("timings.csv"), timings, StandardCharsets.UTF_8);
        return failures;
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
