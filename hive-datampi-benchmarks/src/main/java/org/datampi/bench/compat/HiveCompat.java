package org.datampi.bench.compat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.hadoop.fs.FileUtil;
import org.datampi.bench.harness.ProcessTree;
import org.datampi.bench.harness.RunnerOptions;

/**
 * bin/hive-compat: Hive's own clientpositive qfiles (Hive 4.1.0's source release) run on datampi and on Hive on MR,
 * their rows compared statement by statement ({@link QfileVerdict}). As Hive's own qtest driver runs them: batches of
 * files, each batch on each engine in a JVM of its own whose files share the datasets it loads and each have a session
 * of their own ({@link QfileSession}); a file that is not the same on both engines is then run again alone, each
 * engine in a fresh JVM and warehouse, and that run's class is the file's, so that no file is classed differs or
 * fails by what an earlier one left (what an earlier file left that both engines read alike stays unseen, as in
 * Hive's own runs). Prints a line per file as it ends and the counts per class, and
 * writes OUT/results.tsv (file, class, detail, seconds on mr and on datampi, datampi's stages, and how each engine's
 * rows compare with Hive's recorded output of the file, {@link RecordedOutput}: whose rows it has where the engines
 * differ, and "agreed/checked" statements for each), which --resume reads back to go on where a run stopped. Exits 1 when a file that runs on mr differs, fails or times out on datampi.
 */
public final class HiveCompat {
    private static final String USAGE = """
            bin/hive-compat [--files GLOB[,GLOB...] | --sample N|all [--seed S]] [--engines datampi,mr]
                            [--out DIR] [--timeout SECONDS] [--parallel N] [--batch N] [--resume] [--list]
                            [--report]
              --files      the qfiles whose names match (groupby*.q,join20.q); default every candidate
              --sample     N candidates drawn at random (--seed, 1 by default); all: every candidate, in a
                           random order (the first N of it are --sample N's)
              --engines    datampi,mr (the DAG shape) or datampi-mr,mr (the MapReduce shape) against Hive on MR
              --out        where results.tsv and each file's outcomes and logs go (target/hive-compat)
              --timeout    seconds a file may take on one engine (600)
              --parallel   batches at once (by default half the cores, at least 1)
              --batch      files one session JVM runs in turn, over datasets it loads once (20); a file
                           that is not the same on both engines is run again alone, in JVMs of its own
              --resume     files already in OUT/results.tsv are not run again (harness errors are)
              --list       the candidate set and the files left out, by reason; nothing is run
              --report     OUT/results.tsv summed up, per class and per Hive feature; nothing is run""";
    private static final String HEADER = "file\tclass\tdetail\tmr_seconds\tdatampi_seconds\tdatampi_stages"
            + "\trecorded_at_difference\tmr_recorded\tdatampi_recorded";
    /**
     * The class of a file the harness could not class: its batch failed in the harness, or Hive on MR's session JVM
     * ended before the file's outcome; --resume runs it again.
     */
    static final String HARNESS_ERROR = "harness-error";
    /** The session JVMs running now, stopped (with their ranks) when the tool is. */
    private final Set<Process> running = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final Path home;
    private final HiveSourceRelease release;
    private final HiveTestJars testJars;
    private final String engine;
    private final Path out;
    private final long timeoutSeconds;
    private final Path results;
    /** OUT/tmp: the session JVMs' temporary files and their ranks' (spills, MPI's session directories). */
    private final Path temporary;

    private HiveCompat(Path home, HiveSourceRelease release, HiveTestJars testJars, String engine, Path out,
            long timeoutSeconds) {
        this.home = home;
        this.release = release;
        this.testJars = testJars;
        this.engine = engine;
        this.out = out;
        this.timeoutSeconds = timeoutSeconds;
        this.results = out.resolve("results.tsv");
        this.temporary = out.resolve("tmp");
    }

    public static void main(String[] args) throws Exception {
        RunnerOptions options;
        try {
            options = RunnerOptions.parse(USAGE, args, List.of("--files", "--sample", "--seed", "--engines", "--out",
                    "--timeout", "--parallel", "--batch", "--resume", "--list", "--report", "--release", "--state"),
                    Map.of("--seed", "1", "--engines", "datampi,mr", "--timeout", "600", "--resume", "false",
                            "--batch", "20",
                            "--list", "false", "--report", "false", "--parallel", Integer.toString(Math.max(1,
                                    Runtime.getRuntime().availableProcessors() / 2))));
        } catch (IllegalArgumentException e) {
            fail(e.getMessage());
            return;
        }
        if (options.find("--files").isPresent() && options.find("--sample").isPresent()) {
            fail("give --files or --sample, not both");
        }
        Path home = Path.of(System.getProperty("datampi.home", ".")).toAbsolutePath();
        Path out = (options.find("--out").isPresent() ? Path.of(options.get("--out"))
                : home.resolve("target/hive-compat")).toAbsolutePath();
        if (Boolean.parseBoolean(options.get("--report"))) {
            Path results = out.resolve("results.tsv");
            if (!Files.isRegularFile(results)) {
                fail("no " + results + ": --report sums up a run's results (--out names the run's directory)");
            }
            System.out.print(CompatReport.read(results).text());
            return;
        }
        int parallel = number(options, "--parallel");
        int batch = number(options, "--batch");
        long timeout = number(options, "--timeout");
        List<String> engines = List.of(options.get("--engines").split(","));
        Optional<String> engine = engines.stream().filter(e -> !e.equals("mr"))
                .filter(QfileSession.ENGINES::containsKey).findFirst();
        if (engines.size() != 2 || !engines.contains("mr") || engine.isEmpty()) {
            fail("--engines takes datampi,mr or datampi-mr,mr (Hive on MR is the engine the other is held against), "
                    + "got '" + options.get("--engines") + "'");
        }
        Path zip = options.find("--release").isPresent() ? Path.of(options.get("--release")) : sourceRelease(home);
        Path state = Path.of(options.find("--state").isPresent() ? options.get("--state")
                : Optional.ofNullable(System.getenv("HIVE_DATAMPI_STATE")).orElse(home.resolve("state").toString()));
        HiveSourceRelease release = HiveSourceRelease.extract(zip, state.resolve("hive-compat"));
        // Built anew each run, into the run's own directory: runs from one checkout with other --out dirs may overlap.
        HiveTestJars testJars = HiveTestJars.build(release, namedClasses(release), out.resolve("maven-repository"),
                home, System.out);
        List<Qfile> all = qfiles(release, testJars);
        if (Boolean.parseBoolean(options.get("--list"))) {
            System.out.print(candidateSet(all));
            return;
        }
        List<Qfile> selected = select(all, options);
        HiveCompat compat = new HiveCompat(home, release, testJars, engine.get(), out, timeout);
        Runtime.getRuntime().addShutdownHook(new Thread(compat::stopRunning, "hive-compat-stop"));
        boolean passed = compat.run(selected, Boolean.parseBoolean(options.get("--resume")), parallel, batch);
        System.exit(passed ? 0 : 1);
    }

    /** The source release the build copied (bin/setup: the benchmarks module's target/hive-source-release). */
    private static Path sourceRelease(Path home) throws IOException {
        Path directory = home.resolve("hive-datampi-benchmarks/target/hive-source-release");
        List<Path> zips = Files.isDirectory(directory) ? Files.list(directory)
                .filter(p -> p.getFileName().toString().endsWith("-source-release.zip")).toList() : List.of();
        if (zips.size() != 1) {
            fail("no Hive source release in " + directory + " (bin/setup copies it there), or more than one: " + zips);
        }
        return zips.get(0);
    }

    private static int number(RunnerOptions options, String name) {
        try {
            int value = options.getInt(name);
            if (value < 1) {
                fail(name + " must be at least 1, got " + value);
            }
            return value;
        } catch (IllegalArgumentException e) {
            fail(e.getMessage());
            return 0;
        }
    }

    /** Stops the session JVMs that run (a shutdown: Ctrl-C, a timeout's signal), their ranks first. */
    private void stopRunning() {
        for (Process process : running) {
            process.descendants().forEach(ProcessHandle::destroy);
            process.destroy();
        }
    }

    private static void fail(String message) {
        System.err.println("hive-compat: " + message);
        System.exit(2);
    }

    /** Every clientpositive qfile of the release, by name. */
    static List<Qfile> qfiles(HiveSourceRelease release, HiveTestJars testJars) throws IOException {
        List<Qfile> qfiles = new ArrayList<>();
        for (Path file : qfilePaths(release)) {
            qfiles.add(Qfile.read(file, testJars));
        }
        return qfiles;
    }

    /** The classes the release's qfiles name: those of Hive's test jars are built (HiveTestJars). */
    private static Set<String> namedClasses(HiveSourceRelease release) throws IOException {
        Set<String> named = new java.util.TreeSet<>();
        for (Path file : qfilePaths(release)) {
            named.addAll(Qfile.classNames(Files.readString(file, StandardCharsets.UTF_8)));
        }
        return named;
    }

    private static List<Path> qfilePaths(HiveSourceRelease release) throws IOException {
        try (Stream<Path> files = Files.list(release.clientPositive())) {
            return files.filter(f -> f.getFileName().toString().endsWith(".q")).sorted().toList();
        }
    }

    /** The candidate set's size and the files left out, per kind and reason, most first. */
    static String candidateSet(List<Qfile> all) {
        StringBuilder text = new StringBuilder();
        long candidates = all.stream().filter(q -> q.exclusion().isEmpty()).count();
        text.append(String.format("%d qfiles: %d candidates%n", all.size(), candidates));
        for (Qfile.Kind kind : Qfile.Kind.values()) {
            Map<String, Long> reasons = all.stream().flatMap(q -> q.exclusion().stream())
                    .filter(e -> e.kind() == kind)
                    .collect(Collectors.groupingBy(Qfile.Exclusion::reason, TreeMap::new, Collectors.counting()));
            text.append(String.format("%s: %d%n", kind == Qfile.Kind.EXCLUDED ? "excluded (for good)"
                    : "not yet supported by this harness", reasons.values().stream().mapToLong(Long::longValue).sum()));
            reasons.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .forEach(e -> text.append(String.format("  %5d  %s%n", e.getValue(), e.getKey())));
        }
        return text.toString();
    }

    /** The files --files or --sample asks for (candidates only: an excluded file named is reported, not run). */
    static List<Qfile> select(List<Qfile> all, RunnerOptions options) {
        if (options.find("--files").isPresent()) {
            List<PathMatcher> globs = Stream.of(options.get("--files").split(","))
                    .map(glob -> FileSystems.getDefault().getPathMatcher("glob:" + glob.strip())).toList();
            List<Qfile> named = all.stream().filter(q -> globs.stream().anyMatch(g -> g.matches(Path.of(q.name()))))
                    .toList();
            if (named.isEmpty()) {
                fail("no qfile matches --files " + options.get("--files"));
            }
            named.stream().filter(q -> q.exclusion().isPresent()).forEach(q -> System.out.println(
                    q.name() + ": not run (" + q.exclusion().get().reason() + ")"));
            return named.stream().filter(q -> q.exclusion().isEmpty()).toList();
        }
        List<Qfile> candidates = all.stream().filter(q -> q.exclusion().isEmpty()).collect(Collectors.toList());
        if (options.find("--sample").isPresent()) {
            // "all": every candidate in a random order, so that a run stopped part way is a sample of the set.
            Collections.shuffle(candidates, new Random(number(options, "--seed")));
            int size = options.get("--sample").equals("all") ? candidates.size() : number(options, "--sample");
            return List.copyOf(candidates.subList(0, Math.min(candidates.size(), size)));
        }
        return candidates;
    }

    /**
     * Runs the files in batches of BATCH (files of one time zone together: it is their JVM's), PARALLEL batches at
     * once; true when every file that runs on mr is the same on datampi.
     */
    private boolean run(List<Qfile> selected, boolean resume, int parallel, int batch) throws Exception {
        Files.createDirectories(out);
        Map<String, String[]> done = new LinkedHashMap<>();
        if (resume && Files.isRegularFile(results)) {
            done.putAll(verdicts(Files.readAllLines(results, StandardCharsets.UTF_8)));
        }
        Files.write(results, Stream.concat(Stream.of(HEADER), done.values().stream().map(row -> String.join("\t",
                row))).toList(), StandardCharsets.UTF_8);
        // The session JVMs' and their ranks' temporary files (TMPDIR, java.io.tmpdir): a machine's clean-up of /tmp
        // during a run of hours must not end its sessions.
        FileUtil.fullyDelete(temporary.toFile());
        Files.createDirectories(temporary);
        List<Qfile> toRun = selected.stream().filter(q -> !done.containsKey(q.name())).toList();
        List<List<Qfile>> batches = batches(toRun, batch);
        System.out.printf("hive-compat: %d qfiles on %s and mr (%d done before), in %d batches of at most %d, %d at "
                + "once; results in %s%n", selected.size(), engine, selected.size() - toRun.size(), batches.size(),
                batch, parallel, results);
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, parallel));
        List<Future<List<String[]>>> rows = new ArrayList<>();
        for (int i = 0; i < batches.size(); i++) {
            List<Qfile> files = batches.get(i);
            Path directory = out.resolve("batches").resolve(Integer.toString(i));
            rows.add(pool.submit(() -> {
                try {
                    return compare(files, directory);
                } catch (IOException | RuntimeException e) {
                    // The harness's own failure with this batch: said, and the run goes on.
                    List<String[]> failed = new ArrayList<>();
                    for (Qfile qfile : files) {
                        String[] row = {qfile.name(), HARNESS_ERROR, clean(e.toString()), "", "", "0", "", "", ""};
                        append(row);
                        failed.add(row);
                    }
                    return failed;
                }
            }));
        }
        pool.shutdown();
        Map<String, String[]> all = new LinkedHashMap<>(done);
        for (Future<List<String[]>> batchRows : rows) {
            batchRows.get().forEach(fields -> all.put(fields[0], fields));
        }
        new CompatReport(selected.stream().map(q -> all.get(q.name())).toList()).totals(engine)
                .forEach(line -> System.out.println("hive-compat: " + line));
        return selected.stream().map(q -> all.get(q.name())[1]).noneMatch(Set.of("differs", "fails-on-datampi",
                "timeout-on-datampi", HARNESS_ERROR)::contains);
    }

    /**
     * The rows of results.tsv's LINES (its header first) that are verdicts, by file: a harness error is none, and
     * --resume runs its file again.
     */
    static Map<String, String[]> verdicts(List<String> lines) {
        Map<String, String[]> verdicts = new LinkedHashMap<>();
        // A row cut short (an append a kill interrupted) is no verdict either.
        int fields = HEADER.split("\t").length;
        lines.stream().skip(1).map(line -> line.split("\t", -1))
                .filter(row -> row.length >= fields && !row[1].equals(HARNESS_ERROR))
                .forEach(row -> verdicts.put(row[0], row));
        return verdicts;
    }

    /**
     * FILES in batches of at most SIZE, each of one time zone (qt:timezone sets its JVM's), in FILES' order; a file
     * that wants only its own datasets (qt:dataset:...:ONLY) in a batch of its own.
     */
    static List<List<Qfile>> batches(List<Qfile> files, int size) {
        Map<Optional<String>, List<Qfile>> byZone = new LinkedHashMap<>();
        List<List<Qfile>> batches = new ArrayList<>();
        for (Qfile qfile : files) {
            if (qfile.onlyItsDatasets()) {
                batches.add(List.of(qfile));
            } else {
                byZone.computeIfAbsent(qfile.timeZone(), zone -> new ArrayList<>()).add(qfile);
            }
        }
        for (List<Qfile> zone : byZone.values()) {
            for (int i = 0; i < zone.size(); i += size) {
                batches.add(List.copyOf(zone.subList(i, Math.min(zone.size(), i + size))));
            }
        }
        return batches;
    }

    /**
     * FILES on mr, then on the engine, each engine's in a JVM of its own (in DIRECTORY), compared; a file that is not
     * the same on both is compared again alone, each engine in a fresh JVM, and that is its class. Their TSV rows,
     * also appended to results.tsv.
     */
    private List<String[]> compare(List<Qfile> files, Path directory) throws IOException, InterruptedException {
        FileUtil.fullyDelete(directory.toFile());
        Files.createDirectories(directory);
        Map<String, Run> mr = runBatch("mr", files, directory);
        Map<String, Run> datampi = runBatch(engine, files, directory);
        List<String[]> rows = new ArrayList<>();
        for (Qfile qfile : files) {
            Run onMr = mr.get(qfile.name());
            Run onDatampi = datampi.get(qfile.name());
            QfileVerdict verdict = QfileVerdict.of(onMr.outcome(), onDatampi.outcome());
            if (verdict.verdict() != QfileVerdict.Verdict.SAME && files.size() > 1) {
                // What an earlier file of the batch left must not class this one.
                Path alone = directory.resolve("alone-" + qfile.name());
                try {
                    Run aloneOnMr = runBatch("mr", List.of(qfile), alone).get(qfile.name());
                    Run aloneOnDatampi = runBatch(engine, List.of(qfile), alone).get(qfile.name());
                    onMr = aloneOnMr;
                    onDatampi = aloneOnDatampi;
                    verdict = QfileVerdict.of(onMr.outcome(), onDatampi.outcome());
                } catch (IOException | RuntimeException e) {
                    // The batch's class stands, said to be it.
                    verdict = new QfileVerdict(verdict.verdict(), verdict.detail() + " (in its batch: the run alone "
                            + "failed: " + e + ")");
                } finally {
                    FileUtil.fullyDelete(alone.toFile());
                }
            }
            Optional<RecordedOutput> recorded = RecordedOutput.of(release, qfile.name());
            String atDifference = recorded.isPresent() && verdict.differingStatement().isPresent()
                    ? recordedAt(recorded.get(), verdict.differingStatement().getAsInt(), onMr.outcome().get(),
                    onDatampi.outcome().get()) : "";
            String detail = atDifference.isEmpty() ? verdict.detail() : verdict.detail() + "; Hive's recorded output ("
                    + recorded.get().source() + ") has " + (atDifference.equals("neither") ? "neither engine's"
                    : atDifference.equals("both") ? "both engines'" : atDifference + "'s") + " rows there";
            if (onMr.sessionLost().isPresent()) {
                // Hive on MR gave no outcome to hold datampi's against: the machine's or the harness's doing, not
                // the file's (a datampi session that ends alone stays the file's failure on datampi).
                detail = "mr's " + onMr.sessionLost().get() + onDatampi.sessionLost().map(lost -> "; " + engine
                        + "'s " + lost).orElse("");
            }
            String[] row = {qfile.name(), onMr.sessionLost().isPresent() ? HARNESS_ERROR : verdict.verdict().label(),
                    clean(detail),
                    String.format("%.1f", onMr.seconds()), String.format("%.1f", onDatampi.seconds()),
                    Integer.toString(onDatampi.outcome().map(QfileOutcome::datampiStages).orElse(0)), atDifference,
                    agreement(recorded, onMr), agreement(recorded, onDatampi)};
            synchronized (this) {
                append(row);
                // How many statements gave Hive's recorded rows on each engine first: the detail is cut short.
                System.out.printf("%-50s %-17s mr %6.1f s, %s %6.1f s%s%s%n", qfile.name(), row[1], onMr.seconds(),
                        engine, onDatampi.seconds(), recorded.isEmpty() ? "" : "  recorded rows: mr " + row[7] + ", "
                                + engine + " " + row[8], detail.isEmpty() ? "" : "  " + abbreviate(detail));
            }
            rows.add(row);
        }
        FileUtil.fullyDelete(directory.toFile());
        return rows;
    }

    /**
     * Whose rows Hive's recorded output has at statement INDEX, where the engines' differ: mr, datampi, both (its
     * masked rows stand for either), neither, or "" when it does not record the statement.
     */
    private static String recordedAt(RecordedOutput recorded, int index, QfileOutcome mr, QfileOutcome datampi) {
        Optional<Boolean> mrMatches = recorded.matches(mr, index);
        Optional<Boolean> datampiMatches = recorded.matches(datampi, index);
        if (mrMatches.isEmpty() || datampiMatches.isEmpty()) {
            return "";
        }
        return mrMatches.get() ? (datampiMatches.get() ? "both" : "mr") : (datampiMatches.get() ? "datampi"
                : "neither");
    }

    /** RUN's agreement with Hive's recorded output ("agreed/checked" statements), or "" without one. */
    private static String agreement(Optional<RecordedOutput> recorded, Run run) {
        return recorded.isPresent() && run.outcome().isPresent() ? recorded.get().agreement(run.outcome().get())
                .toString() : "";
    }

    private synchronized void append(String[] row) throws IOException {
        Files.writeString(results, String.join("\t", row) + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    /** TEXT on one line of a TSV field. */
    private static String clean(String text) {
        return text.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    private static String abbreviate(String text) {
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }

    /**
     * A file's run on one engine: its outcome (empty when it did not end within the timeout) and its seconds, from
     * the end of the file before it in its JVM (the JVM's start and the datasets' loads count to its first file).
     */
    private record Run(Optional<QfileOutcome> outcome, double seconds, Optional<String> sessionLost) {
        Run(Optional<QfileOutcome> outcome, double seconds) {
            this(outcome, seconds, Optional.empty());
        }

        /** A run whose session JVM ended, with exit EXIT, before the file's outcome (CONSOLE: its output). */
        static Run sessionEnded(int exit, Path console, double seconds) {
            String lost = "session JVM ended with exit " + exit + " before the file's outcome (" + console + ")";
            return new Run(Optional.of(new QfileOutcome(List.of(), Optional.of("the " + lost), 0)), seconds,
                    Optional.of(lost));
        }
    }

    /**
     * FILES on RUN_ENGINE in a session JVM ({@link QfileSession}), in turn, over a warehouse in DIRECTORY deleted
     * after; each file's outcome and console in OUT/files/NAME, the JVM's output and its ranks' logs in
     * OUT/logs/BATCH. A file that takes longer than the timeout
     * is stopped with its JVM and ranks, a timeout; a JVM that ends before a file's outcome (its session failed) gives
     * that file the failure; after either, or after a file whose traces could not be cleared, the files left go on in
     * a fresh JVM and warehouse.
     */
    private Map<String, Run> runBatch(String runEngine, List<Qfile> files, Path directory)
            throws IOException, InterruptedException {
        Map<String, Run> runs = new LinkedHashMap<>();
        List<Qfile> remaining = new ArrayList<>(files);
        for (int jvm = 0; !remaining.isEmpty(); jvm++) {
            Path warehouse = directory.resolve(runEngine + "-state-" + jvm);
            List<QfileSession.Entry> entries = new ArrayList<>();
            for (Qfile qfile : remaining) {
                Path fileDirectory = out.resolve("files").resolve(qfile.name());
                Files.createDirectories(fileDirectory);
                Path outcome = fileDirectory.resolve(runEngine + ".outcome");
                Files.deleteIfExists(outcome);
                entries.add(new QfileSession.Entry(release.clientPositive().resolve(qfile.name()), outcome,
                        fileDirectory.resolve(runEngine + ".log")));
            }
            Path list = directory.resolve(runEngine + "-batch-" + jvm + ".txt");
            Files.createDirectories(directory);
            Files.write(list, entries.stream().map(QfileSession.Entry::line).toList(), StandardCharsets.UTF_8);
            // The JVM's own output (a crash's stack trace) and its ranks' logs, kept per JVM: OUT/logs/BATCH/.
            Path logs = out.resolve("logs").resolve(out.resolve("batches").relativize(directory));
            Files.createDirectories(logs);
            Path console = logs.resolve(runEngine + "-" + jvm + ".out");
            List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                    "-Xmx2g", "@" + home.resolve("conf/jvm.args"), "-XX:+UseParallelGC", "-Ddatampi.home=" + home,
                    "-Dlog4j2.configurationFile=" + home.resolve("conf/hive-datampi-log4j2.properties"),
                    "-Dhive.datampi.log.dir=" + logs.resolve(runEngine + "-" + jvm + "-ranks"),
                    "-Djava.io.tmpdir=" + temporary));
            remaining.get(0).timeZone().ifPresent(zone -> command.add("-Duser.timezone=" + zone));
            // Hive's test jars on the session's class path, as Hive's qtest module has them (its hooks need junit).
            String classPath = Stream.concat(Stream.of(System.getProperty("java.class.path")),
                    testJars.classPath().stream().map(Path::toString)).collect(Collectors.joining(File.pathSeparator));
            command.addAll(List.of("-cp", classPath, QfileSession.class.getName(),
                    "--release", release.root().toString(), "--engine", runEngine, "--warehouse",
                    warehouse.toString(), "--batch", list.toString(), "--test-jars", testJars.repository().toString(),
                    "--aux-jars", testJars.auxJars().stream().map(Path::toString).collect(Collectors.joining(","))));
            ProcessBuilder session = new ProcessBuilder(command).directory(release.workingDirectory().toFile())
                    .redirectErrorStream(true).redirectOutput(console.toFile());
            session.environment().put("TMPDIR", temporary.toString());
            Process process = session.start();
            running.add(process);
            int next = 0;
            try {
                long fileStart = System.nanoTime();
                while (next < entries.size()) {
                    Path outcome = entries.get(next).outcome();
                    if (Files.isRegularFile(outcome)) {
                        runs.put(remaining.get(next).name(), new Run(Optional.of(QfileOutcome.read(outcome)),
                                seconds(fileStart)));
                        next++;
                        fileStart = System.nanoTime();
                    } else if (!process.isAlive()) {
                        if (Files.isRegularFile(outcome)) {
                            continue;
                        }
                        int exit = process.exitValue();
                        // NOT_CLEARED comes after the outcome of the file it could not clear, so after progress.
                        if (exit != QfileSession.NOT_CLEARED || next == 0) {
                            runs.put(remaining.get(next).name(), Run.sessionEnded(exit, console,
                                    seconds(fileStart)));
                            next++;
                        }
                        break;
                    } else if (seconds(fileStart) > timeoutSeconds) {
                        runs.put(remaining.get(next).name(), new Run(Optional.empty(), seconds(fileStart)));
                        next++;
                        break;
                    } else {
                        TimeUnit.MILLISECONDS.sleep(200);
                    }
                }
                if (next == entries.size()) {
                    // The last file's clean-up and its session's close (which ends its ranks) are still running.
                    process.waitFor(60, TimeUnit.SECONDS);
                }
            } finally {
                // Itself first, whose shutdown stops its jobs' ranks; what is left of them after 10 s.
                ProcessTree.stop(process, 10);
                running.remove(process);
                FileUtil.fullyDelete(warehouse.toFile());
            }
            remaining = new ArrayList<>(remaining.subList(next, remaining.size()));
        }
        return runs;
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

}
