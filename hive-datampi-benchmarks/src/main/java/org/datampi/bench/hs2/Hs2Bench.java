package org.datampi.bench.hs2;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.datampi.bench.harness.BenchmarkDriver;
import org.datampi.bench.harness.EngineBaseline;
import org.datampi.bench.harness.PeakMemory;
import org.datampi.bench.harness.RunnerOptions;
import org.datampi.bench.harness.TaskBudget;
import org.datampi.bench.harness.WorkloadRunner;
import org.datampi.bench.tpch.TpchQuery;
import org.datampi.bench.tpch.TpchRunner;

/**
 * bin/hs2-bench: many users of one HiveServer2 at once. For each engine, starts HiveServer2 (bin/hiveserver2-datampi)
 * with the engine's settings within the {@link TaskBudget}, runs the TPC-H query set with one JDBC client (the
 * reference answers and times), then with each larger number of clients at once, every client a session of its own
 * running the whole set ROUNDS times ({@link ClientLoop}); every answer is checked against the one client's. Writes
 * {@code OUT/ENGINE/queries.csv} (every query every client ran), {@code OUT/summary.md} (per engine and client
 * count: time, queries per minute, the concurrency factor, latency percentiles, a short query's latency under load
 * against alone, errors, groups of ranks started, peak memory) and prints {@code <engine>_concurrency_factor_at_<N>=X}.
 *
 * <p>Every client runs the same set the same number of times (rounds, not a duration), so that the factor compares
 * equal work: N clients' total time over N times one client's ({@link ClientRun#concurrencyFactor}). Each engine has
 * one set of task processes for all sessions, the budget's: datampi one group of ranks (hive.datampi.groups.max=1,
 * unless --hiveconf says otherwise; a second would take memory and cores beyond what the other engines get), tez-yarn
 * HiveServer2's Tez session pool of one session (one Tez AM holding the budget's task containers, opened when the
 * server starts), as a Tez site sizes its pool to its cluster: a query that finds the session busy waits for it.
 *
 * <p>With {@code --churn K}, one more run after the others: the largest client count again, with K {@link ChurnClient}s
 * opening and closing sessions beside them (half of them mid-query), to show that the server goes on answering its
 * other sessions rightly and at what cost.
 */
public final class Hs2Bench {
    private static final String USAGE = "Hs2Bench --engines datampi --clients 1,2,4 --rounds R --scale SF --format "
            + "orc --queries 1-22 --heap SIZE --procs P --out DIR --command TEXT [--churn K] [--record FILE --section "
            + "NAME] [--hiveconf KEY=VALUE]...";
    /** TPC-H's short query, whose latency under load the issue bounds (3 times alone). */
    private static final String SHORT_QUERY = "q6";
    private static final List<String> ENGINES = List.of("datampi", "datampi-mr", "tez-yarn");
    private static final int LOGIN_TIMEOUT_SECONDS = 120;
    /** Sessions a run holds open at once beyond its clients (the untimed warm-up's, Beeline's by an admin). */
    private static final int SPARE_SESSIONS = 8;
    /** How long a run waits for its churning clients once its clients are done: each is between two sessions. */
    private static final long CHURN_END_SECONDS = 300;

    private Hs2Bench() {
    }

    public static void main(String[] args) throws Exception {
        Path home = WorkloadRunner.home();
        RunnerOptions options = RunnerOptions.parse(USAGE, args, List.of("--engines", "--clients", "--rounds",
                "--scale", "--format", "--queries", "--heap", "--procs", "--out", "--command", "--churn", "--record",
                "--section"), Map.of("--engines", "datampi", "--clients", "1,2,4", "--rounds", "1", "--queries",
                "1-22", "--format", "orc", "--churn", "0"));
        List<String> engines = Arrays.asList(options.get("--engines").split(","));
        for (String engine : engines) {
            if (!ENGINES.contains(EngineBaseline.checked(engine))) {
                throw new IllegalArgumentException("hs2-bench runs " + ENGINES + "; " + engine + " (Hive's local "
                        + "modes) runs one task at a time in Hive's own JVM, which HiveServer2's sessions would share");
            }
        }
        TreeSet<Integer> clientCounts = new TreeSet<>(List.of(1));
        for (String count : options.get("--clients").split(",")) {
            int clients = Integer.parseInt(count.trim());
            if (clients < 1) {
                throw new IllegalArgumentException("--clients must be whole numbers of 1 or more, got " + count);
            }
            clientCounts.add(clients);
        }
        int rounds = options.getInt("--rounds");
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be 1 or more, got " + rounds);
        }
        int churn = options.getInt("--churn");
        if (churn < 0) {
            throw new IllegalArgumentException("--churn must be 0 or more, got " + churn);
        }
        // No client waits for ever for a session (Hive's JDBC driver takes it as its connect timeout).
        DriverManager.setLoginTimeout(LOGIN_TIMEOUT_SECONDS);
        String scale = options.get("--scale");
        TpchQuery shortQuery = TpchQuery.load(home.resolve("tpch-queries"), 6, Double.parseDouble(scale));
        List<TpchQuery> queries = new ArrayList<>();
        for (int number : TpchRunner.parseQueries(options.get("--queries"))) {
            queries.add(TpchQuery.load(home.resolve("tpch-queries"), number, Double.parseDouble(scale)));
        }
        String database = TpchRunner.database(scale, options.get("--format"), "flat");
        TaskBudget budget = new TaskBudget(options.getInt("--procs"),
                BenchmarkDriver.megabytes(options.get("--heap")));
        Path out = Files.createDirectories(Path.of(options.get("--out")));

        Load load = new Load(database, queries, rounds, shortQuery);
        Map<String, List<ClientRun>> results = new LinkedHashMap<>();
        for (String engine : engines) {
            Path engineOut = Files.createDirectories(out.resolve(engine));
            try (EngineBaseline baseline = EngineBaseline.start(engine, budget, engineOut)) {
                Map<String, String> settings = new LinkedHashMap<>(baseline.settings());
                settings.putAll(sharedTasks(engine));
                // Every open session holds one of the server's Thrift threads.
                settings.put("hive.server2.thrift.max.worker.threads", Integer.toString(Math.max(32,
                        clientCounts.last() + churn + SPARE_SESSIONS)));
                settings.putAll(options.hiveconf());
                System.err.println("hs2-bench: " + engine + ": starting HiveServer2 (" + budget.describe(engine)
                        + ")");
                Map<String, String> environment = engine.equals("tez-yarn") ? Map.of("HIVE_DATAMPI_CLASSPATH",
                        tezRuntime(home) + "/*") : Map.of();
                try (HiveServer2Process server = HiveServer2Process.start(home, settings, environment,
                        budget.clientHeapMb(engine), engineOut.resolve("hiveserver2.console"),
                        Path.of(WorkloadRunner.defaultStateDir(), "logs", "hiveserver2-datampi.log"))) {
                    List<ProcessHandle> processes = new ArrayList<>(List.of(server.handle()));
                    processes.addAll(baseline.processes());
                    results.put(engine, runAll(server, processes, load, clientCounts, churn, engine,
                            engineOut.resolve("queries.csv")));
                }
            }
        }

        String title = String.format(Locale.ROOT, "HiveServer2 with %s clients at once, TPC-H scale %s, %s, %d "
                + "round%s of %d queries per client", clientCounts, scale, options.get("--format"), rounds,
                rounds == 1 ? "" : "s", queries.size());
        String settings = String.format(Locale.ROOT, "Every engine had %,d MB of heap in all and at most %d Hive "
                + "task%s at once:%n", budget.heapMb(), budget.tasks(), budget.tasks() == 1 ? "" : "s")
                + engines.stream().map(engine -> "\n- " + budget.describe(engine)).reduce("", String::concat);
        String body = ConcurrencyReport.markdown(results, SHORT_QUERY);
        String factors = "```\n" + String.join("\n", ConcurrencyReport.factorLines(results)) + "\n```\n";
        Files.writeString(out.resolve("summary.md"), "# " + title + "\n\n" + settings + "\n\n" + body + "\n"
                + factors, StandardCharsets.UTF_8);
        System.out.println(body);
        System.out.print(factors);
        System.out.println("hs2-bench: report in " + out.resolve("summary.md"));
        if (options.find("--record").isPresent()) {
            BenchmarkDriver.record(Path.of(options.get("--record")), options.get("--section"),
                    options.get("--command"), settings, "**" + title + "**\n\n" + body, factors, Optional.empty());
        }
        boolean failed = results.values().stream().flatMap(List::stream).anyMatch(run -> run.errors() > 0);
        System.exit(failed ? 1 : 0);
    }

    /** The Tez runtime a Tez AM and its tasks need beside Hive's jars (the benchmarks' build collects it). */
    private static Path tezRuntime(Path home) {
        Path tez = home.resolve("hive-datampi-benchmarks/target/tez-lib");
        if (!Files.isDirectory(tez)) {
            throw new IllegalStateException("Tez's runtime is missing from " + tez + ": run bin/setup");
        }
        return tez;
    }

    /** How the engine's sessions share the budget's task processes (see the class doc). */
    private static Map<String, String> sharedTasks(String engine) {
        if (engine.equals("tez-yarn")) {
            return Map.of("hive.server2.tez.initialize.default.sessions", "true",
                    "hive.server2.tez.default.queues", "default",
                    "hive.server2.tez.sessions.per.default.queue", "1");
        }
        return Map.of("hive.datampi.groups.max", "1");
    }

    /** What every client of a run does: the query set ROUNDS times over DATABASE; churning clients SHORT_QUERY. */
    private record Load(String database, List<TpchQuery> queries, int rounds, TpchQuery shortQuery) {
    }

    /**
     * One client first (its answers are the reference), then each larger count, then (CHURN above 0) the largest
     * again with CHURN churning clients. PROCESSES are the engine's process trees (HiveServer2's, and for tez-yarn
     * YARN's) whose peak memory each run reports. Every query of the runs so far is in CSV after each run, so that a
     * bench stopped midway keeps what it measured.
     */
    private static List<ClientRun> runAll(HiveServer2Process server, List<ProcessHandle> processes, Load load,
            TreeSet<Integer> clientCounts, int churn, String engine, Path csv) throws Exception {
        // An untimed query first, on a session that stays open through every run as a server's other users keep
        // theirs: no timed query pays for the server's first compile (its JIT, the metastore's caches), nor for a
        // group of ranks started anew at a run's start (a group ends when the last session that used it closes).
        try (Connection warm = DriverManager.getConnection(server.url(load.database()), "hs2-bench-warm", "")) {
            ClientLoop.untimed(warm, load.queries().get(0));
            return timedRuns(server, processes, load, clientCounts, churn, engine, csv);
        }
    }

    private static List<ClientRun> timedRuns(HiveServer2Process server, List<ProcessHandle> processes, Load load,
            TreeSet<Integer> clientCounts, int churn, String engine, Path csv) throws Exception {
        Map<String, List<String>> reference = new ConcurrentHashMap<>();
        List<ClientRun> runs = new ArrayList<>();
        List<Integer> counts = new ArrayList<>(clientCounts);
        if (churn > 0) {
            counts.add(clientCounts.last());
        }
        for (int i = 0; i < counts.size(); i++) {
            int clients = counts.get(i);
            int churning = i == clientCounts.size() ? churn : 0;
            // The single client's rows are the reference; a larger run compares with them and keeps its own apart.
            ClientRun run = clients == 1 && churning == 0
                    ? run(server, processes, load, clients, 0, null, reference)
                    : run(server, processes, load, clients, churning, Map.copyOf(reference),
                            new ConcurrentHashMap<>());
            System.err.printf(Locale.ROOT, "hs2-bench: %s, %d client%s%s: %.1f s, %.1f queries/min, %d error%s%n",
                    engine, clients, clients == 1 ? "" : "s", churning == 0 ? "" : " + " + churning + " churning",
                    run.wallSeconds(), run.queriesPerMinute(), run.errors(), run.errors() == 1 ? "" : "s");
            runs.add(run);
            List<String> lines = new ArrayList<>(List.of(QueryRun.CSV_HEADER + ",churning"));
            runs.forEach(done -> done.queries().forEach(query -> lines.add(query.toCsv() + ","
                    + done.churn().clients())));
            Files.write(csv, lines, StandardCharsets.UTF_8);
        }
        return runs;
    }

    private static ClientRun run(HiveServer2Process server, List<ProcessHandle> processes, Load load, int clients,
            int churning, Map<String, List<String>> expected, Map<String, List<String>> answers) throws Exception {
        int groupsBefore = server.groupsStarted();
        ExecutorService pool = Executors.newFixedThreadPool(clients + churning);
        AtomicBoolean working = new AtomicBoolean(true);
        List<QueryRun> all = new ArrayList<>();
        Churn churn = Churn.NONE;
        long peak;
        try (PeakMemory memory = new PeakMemory(processes)) {
            long start = System.nanoTime();
            List<Future<List<QueryRun>>> futures = new ArrayList<>();
            for (int client = 0; client < clients; client++) {
                futures.add(pool.submit(new ClientLoop(server.url(load.database()), load.queries(), load.rounds(),
                        clients, client, start, expected, answers)));
            }
            List<Future<Churn>> churners = new ArrayList<>();
            for (int client = 0; client < churning; client++) {
                churners.add(pool.submit(new ChurnClient(server.url(load.database()), load.shortQuery(), client,
                        working::get)));
            }
            for (Future<List<QueryRun>> future : futures) {
                all.addAll(future.get());
            }
            working.set(false);
            for (int client = 0; client < churners.size(); client++) {
                try {
                    churn = churn.plus(churners.get(client).get(CHURN_END_SECONDS, TimeUnit.SECONDS));
                } catch (ExecutionException | TimeoutException e) {
                    churn = churn.plus(Churn.failed(client, e instanceof ExecutionException ? e.getCause() : e));
                }
            }
            peak = memory.peakMegabytes();
        } finally {
            working.set(false);
            pool.shutdownNow();
        }
        return new ClientRun(clients, all, server.groupsStarted() - groupsBefore, peak, churn);
    }
}
