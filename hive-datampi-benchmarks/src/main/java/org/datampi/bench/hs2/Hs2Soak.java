package org.datampi.bench.hs2;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.datampi.bench.harness.BenchmarkDriver;
import org.datampi.bench.harness.EngineBaseline;
import org.datampi.bench.harness.ResultRows;
import org.datampi.bench.harness.RunnerOptions;
import org.datampi.bench.harness.TaskBudget;
import org.datampi.bench.harness.WorkloadRunner;
import org.datampi.bench.tpch.TpchQuery;
import org.datampi.bench.tpch.TpchRunner;

/**
 * bin/hs2-soak: one HiveServer2 on datampi runs STATEMENTS statements from one long JDBC session, so that one warm
 * group of ranks runs them all, and watches whether anything ages. The statements are TPC-H's 22 queries looped (each
 * answer equal to the first time that query ran), with, mixed in: every {@value #UDF_EVERY}th, a session of its own
 * that adds a jar and runs a function from it (a class loader per session, which must go again); at 50 past every
 * hundred, a query that fails to compile; with --cancel-every N, every Nth a query cancelled once it runs, which ends within
 * the session's hive.datampi.cancel.grace so that the group stays (a cancelled job's leftovers are what the soak is
 * to find). Every --sample-every statements it samples HiveServer2's JVM and
 * each rank's ({@link JvmSample}: heap after a full GC, RSS, threads, descriptors, classes) and the files under the
 * ranks' local directory; at the end, with the server stopped, the files left there. Reports the samples and each
 * measure's growth from the first sample after --baseline statements to the last ({@link SoakReport}), prints
 * {@code soak_<who>_<measure>_growth_percent=X}, and exits 1 when the ranks' heap, threads or descriptors grew by more than
 * --max-growth percent, a file was left, or a statement went wrong.
 */
public final class Hs2Soak {
    private static final String USAGE = "Hs2Soak --statements N --sample-every K --baseline B --max-growth PERCENT "
            + "--cancel-every C --scale SF --format orc --heap SIZE --procs P --out DIR --command TEXT "
            + "[--record FILE --section NAME] [--hiveconf KEY=VALUE]...";
    static final int UDF_EVERY = 25;
    private static final String UDF_NAME = "soak_tag";
    /**
     * About 7 s whatever the scale: 3,000 generated rows, each sleeping 2 or 3 ms. Cancelled a second after its stage
     * shows a running task, it ends within {@link #CANCEL_GRACE_SECONDS}.
     */
    private static final String CANCELLED_QUERY = "SELECT count(*) FROM (SELECT posexplode(split(space(2999), ' ')) "
            + "AS (pos, unused)) t WHERE reflect('java.lang.Thread', 'sleep', cast(2 + pos % 2 AS BIGINT)) IS NOT NULL";
    /** The cancelling session's hive.datampi.cancel.grace: ample for the query to end on a loaded machine. */
    private static final int CANCEL_GRACE_SECONDS = 120;
    /** What HiveServer2's console says of a cancelled job whose ranks finished it and stay (MpidrunJob). */
    private static final String RANKS_STAYED = "within the cancel grace and stay up for the next stage";

    enum Step { TPCH, UDF_SESSION, COMPILE_FAILURE, CANCEL }

    private final String url;
    private final Path console;
    private final Path udfJar;
    private final List<TpchQuery> queries;
    private final Map<String, List<String>> firstAnswers = new HashMap<>();
    private final List<String> errors = new ArrayList<>();
    private int tpchRun;

    private Hs2Soak(String url, Path console, Path udfJar, List<TpchQuery> queries) {
        this.url = url;
        this.console = console;
        this.udfJar = udfJar;
        this.queries = queries;
    }

    public static void main(String[] args) throws Exception {
        Path home = WorkloadRunner.home();
        RunnerOptions options = RunnerOptions.parse(USAGE, args, List.of("--statements", "--sample-every",
                "--baseline", "--max-growth", "--cancel-every", "--scale", "--format", "--heap", "--procs", "--out",
                "--command", "--record", "--section"), Map.of("--statements", "1000", "--sample-every", "50",
                "--baseline", "100", "--max-growth", "10", "--cancel-every", "0", "--format", "orc"));
        int statements = options.getInt("--statements");
        int sampleEvery = options.getInt("--sample-every");
        int cancelEvery = options.getInt("--cancel-every");
        if (statements < 1 || sampleEvery < 1 || cancelEvery < 0) {
            throw new IllegalArgumentException("--statements and --sample-every must be 1 or more, --cancel-every 0 "
                    + "(none) or more");
        }
        double maxGrowth = Double.parseDouble(options.get("--max-growth"));
        String scale = options.get("--scale");
        List<TpchQuery> queries = new ArrayList<>();
        for (int number = 1; number <= 22; number++) {
            queries.add(TpchQuery.load(home.resolve("tpch-queries"), number, Double.parseDouble(scale)));
        }
        String database = TpchRunner.database(scale, options.get("--format"), "flat");
        TaskBudget budget = new TaskBudget(options.getInt("--procs"), BenchmarkDriver.megabytes(options.get("--heap")));
        Path out = Files.createDirectories(Path.of(options.get("--out")));
        Path localRoot = Path.of(System.getenv().getOrDefault("DATAMPI_LOCAL_DIR",
                System.getenv().getOrDefault("TMPDIR", "/tmp"))).resolve("datampi-" + System.getProperty("user.name"));
        Set<Path> filesBefore = files(localRoot);

        List<SoakSample> samples = new ArrayList<>();
        Path console = out.resolve("hiveserver2.console");
        Hs2Soak soak;
        long started = System.nanoTime();
        try (EngineBaseline baseline = EngineBaseline.start("datampi", budget, out)) {
            Map<String, String> settings = new LinkedHashMap<>(baseline.settings());
            settings.put("hive.datampi.groups.max", "1");
            settings.putAll(options.hiveconf());
            System.err.println("hs2-soak: starting HiveServer2 (" + budget.describe("datampi") + ")");
            try (HiveServer2Process server = HiveServer2Process.start(home, settings, Map.of(), budget.clientHeapMb("datampi"),
                    console, Path.of(WorkloadRunner.defaultStateDir(), "logs",
                            "hiveserver2-datampi.log"));
                    Connection session = DriverManager.getConnection(server.url(database), "hs2-soak", "")) {
                soak = new Hs2Soak(server.url(database), console, writeUdfJar(out.resolve("soak-udf.jar")), queries);
                Set<Long> groupPids = Set.of();
                int group = 0;
                for (int index = 1; index <= statements; index++) {
                    soak.step(session, stepAt(index, cancelEvery), index);
                    if (index % sampleEvery == 0) {
                        List<ProcessHandle> ranks = server.handle().descendants().filter(process -> process.info()
                                .commandLine().orElse("").contains("org.datampi.runtime.CommonProcess")).toList();
                        Set<Long> pids = ranks.stream().map(ProcessHandle::pid).collect(Collectors.toSet());
                        if (!pids.isEmpty() && !pids.equals(groupPids)) {
                            group++;
                            groupPids = pids;
                        }
                        List<JvmSample> rankSamples = new ArrayList<>();
                        for (ProcessHandle rank : ranks) {
                            JvmSample.take(rank).ifPresent(rankSamples::add);
                        }
                        SoakSample sample = new SoakSample(index, group, JvmSample.take(server.handle()),
                                rankSamples, added(files(localRoot), filesBefore).size());
                        samples.add(sample);
                        System.err.printf(Locale.ROOT, "hs2-soak: %d statements (%.0f s), group %d: rank heap after "
                                + "GC %.1f MB, threads %d, fds %d, classes %d; %d error%s%n", index,
                                (System.nanoTime() - started) / 1e9, group,
                                sample.ranksMax(JvmSample::heapAfterGcBytes) / 1048576.0,
                                sample.ranksMax(JvmSample::threads), sample.ranksMax(JvmSample::fileDescriptors),
                                sample.ranksMax(JvmSample::loadedClasses), soak.errors.size(),
                                soak.errors.size() == 1 ? "" : "s");
                    }
                }
            }
        }
        // The server is stopped: its sessions closed, its groups ended. Nothing of theirs may stay.
        List<Path> left = added(files(localRoot), filesBefore);
        long filesLeft = left.size();
        double minutes = (System.nanoTime() - started) / 60e9;

        Map<String, Double> growth = SoakReport.growth(samples, options.getInt("--baseline"));
        List<String> over = SoakReport.overBound(growth, maxGrowth);
        int groups = samples.isEmpty() ? 0 : samples.get(samples.size() - 1).group();
        List<String> lines = new ArrayList<>(List.of("soak_statements=" + statements, "soak_errors="
                + soak.errors.size(), "soak_groups=" + groups));
        lines.addAll(SoakReport.growthLines(growth));
        lines.add("soak_files_left=" + filesLeft);
        String title = String.format(Locale.ROOT, "%d statements on one HiveServer2 (TPC-H scale %s, %s) in %.1f "
                + "minutes, sampled every %d", statements, scale, options.get("--format"), minutes, sampleEvery);
        String settings = String.format(Locale.ROOT, "datampi had %,d MB of heap in all and %d tasks at once: %s; "
                + "one group of ranks at a time (hive.datampi.groups.max=1); a cancel every %s.", budget.heapMb(),
                budget.tasks(), budget.describe("datampi"), cancelEvery == 0 ? "never" : cancelEvery + " statements");
        String verdict = over.isEmpty() && filesLeft == 0 && soak.errors.isEmpty()
                ? String.format(Locale.ROOT, "Within the bound: the ranks' heap after GC, threads and descriptors "
                        + "grew by at most %.0f%% from statement %s on, no file was left and no statement went "
                        + "wrong.", maxGrowth, options.get("--baseline"))
                : "**Outside the bound**: " + String.join(", ", over) + (filesLeft == 0 ? "" : "; " + filesLeft
                        + " files left under " + localRoot + ", among them " + left.subList(0, Math.min(5, left.size()))) + (soak.errors.isEmpty() ? "" : "; errors: "
                        + String.join("; ", soak.errors.subList(0, Math.min(5, soak.errors.size()))));
        String body = "**" + title + "**\n\n" + SoakReport.table(samples) + "\n" + verdict + "\n";
        String block = "```\n" + String.join("\n", lines) + "\n```\n";
        Files.writeString(out.resolve("summary.md"), "# " + title + "\n\n" + settings + "\n\n" + body + "\n" + block,
                StandardCharsets.UTF_8);
        System.out.println(body);
        System.out.print(block);
        System.out.println("hs2-soak: report in " + out.resolve("summary.md"));
        if (options.find("--record").isPresent()) {
            BenchmarkDriver.record(Path.of(options.get("--record")), options.get("--section"),
                    options.get("--command"), settings, body, block, Optional.empty());
        }
        System.exit(over.isEmpty() && filesLeft == 0 && soak.errors.isEmpty() ? 0 : 1);
    }

    /** What statement INDEX is: a cancel, else a compile failure (50 past each hundred), else a jar session. */
    static Step stepAt(int index, int cancelEvery) {
        if (cancelEvery > 0 && index % cancelEvery == 0) {
            return Step.CANCEL;
        }
        if (index % 100 == 50) {
            return Step.COMPILE_FAILURE;
        }
        return index % UDF_EVERY == 0 ? Step.UDF_SESSION : Step.TPCH;
    }

    private void step(Connection session, Step step, int index) {
        try {
            switch (step) {
                case TPCH -> tpch(session);
                case UDF_SESSION -> udfSession();
                case COMPILE_FAILURE -> compileFailure(session);
                case CANCEL -> cancel(session);
            }
        } catch (SQLException | IOException | RuntimeException | InterruptedException e) {
            errors.add("statement " + index + " (" + step + "): " + e.getMessage());
        }
    }

    /** The next TPC-H query; its rows equal the first time it ran. */
    private void tpch(Connection session) throws SQLException {
        TpchQuery query = queries.get(tpchRun++ % queries.size());
        List<String> rows = new ArrayList<>();
        try (Statement statement = session.createStatement()) {
            statement.setQueryTimeout(ClientLoop.QUERY_TIMEOUT_SECONDS);
            for (String sql : query.statements()) {
                if (query.isResult(sql)) {
                    rows.addAll(JdbcRows.query(statement, sql));
                } else {
                    statement.execute(sql);
                }
            }
        }
        String name = query.workload().name();
        List<String> first = firstAnswers.putIfAbsent(name, rows);
        if (first != null) {
            List<String> differences = ResultRows.differences(first, "its first run", rows, "this run", false);
            if (!differences.isEmpty()) {
                throw new IllegalStateException(name + "'s rows differ from its first run's: " + differences);
            }
        }
    }

    /** A session of its own adds the jar, makes the function and runs a stage with it: 25 nations, tagged. */
    private void udfSession() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, "hs2-soak-udf", "");
                Statement statement = connection.createStatement()) {
            statement.execute("ADD JAR " + udfJar);
            statement.execute("CREATE TEMPORARY FUNCTION " + UDF_NAME + " AS '" + SoakUdf.class.getName() + "'");
            List<String> rows = JdbcRows.query(statement, "SELECT " + UDF_NAME + "(n_name), count(*) FROM nation "
                    + "GROUP BY " + UDF_NAME + "(n_name)");
            if (rows.size() != 25 || !rows.stream().allMatch(row -> row.startsWith("soak:") && row.endsWith("\t1"))) {
                throw new IllegalStateException("the function from the added jar gave " + rows);
            }
        }
    }

    private static void compileFailure(Connection session) throws SQLException {
        try (Statement statement = session.createStatement()) {
            statement.executeQuery("SELECT no_such_column FROM nation").close();
            throw new IllegalStateException("a query of a column that does not exist ran");
        } catch (SQLException e) {
            if (!e.getMessage().contains("no_such_column")) {
                throw e;
            }
        }
    }

    /**
     * A query cancelled a second after its stage's tasks run (HiveServer2's console shows a running task): no rows,
     * and its ranks finish its job within the grace and stay, so that the next statement runs on the same group.
     */
    private void cancel(Connection session) throws SQLException, InterruptedException, IOException {
        ExecutorService client = Executors.newSingleThreadExecutor();
        long consoleBefore = Files.size(console);
        try (Statement statement = session.createStatement()) {
            statement.execute("SET hive.datampi.cancel.grace=" + CANCEL_GRACE_SECONDS);
            Future<List<String>> running = client.submit(() -> JdbcRows.query(statement, CANCELLED_QUERY));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!stageRuns(consoleBefore)) {
                if (System.nanoTime() > deadline || running.isDone()) {
                    throw new IllegalStateException("the query to cancel showed no running task within 120 s");
                }
                TimeUnit.MILLISECONDS.sleep(200);
            }
            TimeUnit.SECONDS.sleep(1);
            statement.cancel();
            try {
                List<String> rows = running.get(60, TimeUnit.SECONDS);
                if (!rows.isEmpty()) {
                    throw new IllegalStateException("the cancelled query gave rows " + rows);
                }
            } catch (java.util.concurrent.ExecutionException e) {
                if (!(e.getCause() instanceof SQLException)) {
                    throw new IllegalStateException("the cancelled query failed with " + e.getCause(), e);
                }
            } catch (java.util.concurrent.TimeoutException e) {
                throw new IllegalStateException("the cancelled query did not end within 60 s", e);
            }
            // The stage says so once it has closed, which may be after the client heard of the cancel.
            long said = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!consoleSince(consoleBefore).contains(RANKS_STAYED)) {
                if (System.nanoTime() > said) {
                    throw new IllegalStateException("the cancelled query's job did not end within the cancel grace on "
                            + "its ranks (HiveServer2's console, " + console + ", says why)");
                }
                TimeUnit.MILLISECONDS.sleep(200);
            }
            statement.execute("SET hive.datampi.cancel.grace=");
        } finally {
            client.shutdownNow();
        }
    }

    /** Whether HiveServer2's console, after its first FROM bytes, shows a task running ("0(+1)/1"). */
    private boolean stageRuns(long from) throws IOException {
        return consoleSince(from).matches("(?s).*Stage-1 [^\n]*\\(\\+\\d+\\).*");
    }

    /** What HiveServer2's console says after its first FROM bytes (a MB at most). */
    private String consoleSince(long from) throws IOException {
        try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(console.toFile(), "r")) {
            file.seek(from);
            byte[] added = new byte[(int) Math.min(file.length() - from, 1 << 20)];
            file.readFully(added);
            return new String(added, StandardCharsets.UTF_8);
        }
    }

    /** A jar of SoakUdf alone, as a user's jar of a function. */
    private static Path writeUdfJar(Path jar) throws IOException {
        String entry = SoakUdf.class.getName().replace('.', '/') + ".class";
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
                InputStream in = SoakUdf.class.getClassLoader().getResourceAsStream(entry)) {
            if (in == null) {
                throw new IOException("SoakUdf's class file is not on the classpath: " + entry);
            }
            out.putNextEntry(new JarEntry(entry));
            in.transferTo(out);
        }
        return jar;
    }

    /** Regular files under DIR, its subdirectories included; none when it does not exist. */
    private static Set<Path> files(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return Set.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).collect(Collectors.toSet());
        } catch (java.io.UncheckedIOException e) {
            // A rank removed a file while it was walked: look again.
            return files(dir);
        }
    }

    /** The files of NOW that were not there BEFORE (a file that was, and went, is no file of this soak's). */
    private static List<Path> added(Set<Path> now, Set<Path> before) {
        return now.stream().filter(path -> !before.contains(path)).sorted().toList();
    }
}
