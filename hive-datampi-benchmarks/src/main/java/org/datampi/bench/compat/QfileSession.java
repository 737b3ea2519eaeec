package org.datampi.bench.compat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import org.apache.hadoop.hive.common.io.SessionStream;
import org.apache.hive.common.util.HiveVersionInfo;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.datampi.hive.cli.HiveQlScript;
import org.datampi.hive.session.QuerySession;

/**
 * Runs qfiles on one engine in a JVM of their own, one after the other, as Hive's qtest driver runs a test class's
 * files: each in a Hive session of its own over one warehouse, whose datasets are loaded once, when a file first needs
 * them, and kept ({@link SourceObjects}: what a file made is dropped after it, and a file may not write a source
 * table); its statements one by one, each statement's rows or failure kept, up to its first failure as Hive's driver
 * stops there. Writes a {@link QfileOutcome} per file as it ends. What Hive's driver gives a file, given here: its
 * datasets, Hive's test variables as system properties (${system:test.tmp.dir} and others), itests/qtest as the
 * working directory (bin/hive-compat starts it there), and its settings again after a RESET (which would put the
 * session back on the site's engine and Hive's defaults).
 *
 * <p>Exits 0 once every file's outcome is written; {@link #NOT_CLEARED} when a file's traces could not be cleared
 * (it changed a source table's files, or a drop failed: its outcome is written, the files after it are not run, as
 * they need a fresh warehouse); 1 when the session itself failed (out of heap, a class missing), the file it ran
 * having no outcome.
 */
public final class QfileSession {
    /** The exit status after a file whose traces could not be cleared: the files after it need a fresh JVM. */
    static final int NOT_CLEARED = 3;
    private static final String USAGE = "Usage: QfileSession --release ROOT --engine datampi|mr --warehouse DIR "
            + "--batch LIST (a line per qfile: QFILE<tab>OUTCOME<tab>CONSOLE) [--test-jars REPOSITORY] "
            + "[--aux-jars JAR,...]";
    /** Statements whose output tells the engine, the files' layout, the time or the settings: run, not compared. */
    private static final Pattern NOT_COMPARED = Pattern.compile("(?is)\\s*(explain|set|reset|dfs|add|delete|list"
            + "|reload|analyze|compile|show\\s+(create\\s+table|table\\s+extended|tblproperties|locks|compactions"
            + "|transactions|processlist|conf)|desc(ribe)?\\s+(formatted|extended|database|schema)"
            + "|desc(ribe)?\\s+\\S+\\s+(formatted|extended))\\b.*");
    private static final Pattern RESET = Pattern.compile("(?is)\\s*reset\\b.*");
    /** The console's summary line of a datampi stage (datampi: Stage-1 job_datampi..._0001 4.2 s: ...). */
    private static final Pattern DATAMPI_STAGE = Pattern.compile("(?m)^datampi: Stage-\\S+ job_datampi\\S+ [0-9.]+ s:");
    /** Hive's pre-execution hook that refuses a write to a source table (test.src.tables), as in Hive's tests. */
    private static final String READ_ONLY_HOOK = "org.apache.hadoop.hive.ql.hooks.EnforceReadOnlyTables";

    private QfileSession() {
    }

    /** One qfile of a batch: where its outcome and its console go. */
    record Entry(Path qfile, Path outcome, Path console) {
        static Entry parse(String line) {
            String[] fields = line.split("\t");
            if (fields.length != 3) {
                throw new IllegalArgumentException("a batch line is QFILE<tab>OUTCOME<tab>CONSOLE: " + line);
            }
            return new Entry(Path.of(fields[0]), Path.of(fields[1]), Path.of(fields[2]));
        }

        String line() {
            return qfile + "\t" + outcome + "\t" + console;
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i], args[i + 1]);
        }
        for (String required : List.of("--release", "--engine", "--warehouse", "--batch")) {
            if (!options.containsKey(required)) {
                System.err.println("QfileSession: " + required + " is required\n" + USAGE);
                System.exit(2);
            }
        }
        int exit = 1;
        try {
            HiveSourceRelease release = new HiveSourceRelease(Path.of(options.get("--release")));
            List<Entry> batch = Files.readAllLines(Path.of(options.get("--batch"))).stream()
                    .filter(line -> !line.isBlank()).map(Entry::parse).toList();
            Path warehouse = Path.of(options.get("--warehouse")).toAbsolutePath();
            Files.createDirectories(warehouse);
            Path repository = options.containsKey("--test-jars") ? Path.of(options.get("--test-jars"))
                    : warehouse.resolve("no-test-jars");
            testVariables(release, warehouse, repository).forEach(System::setProperty);
            // As Hive's test hive-site.xml: any setting may be SET (its restricted list a dummy). A system property,
            // which each session's HiveConf reads before it makes the list (a setting given later is not read).
            System.setProperty("hive.conf.restricted.list", "dummy.config.value");
            String auxJars = options.getOrDefault("--aux-jars", "");
            if (!auxJars.isBlank()) {
                // Read by each session's HiveConf (its system-property overlay), as bin/hive's --hiveconf would set it.
                System.setProperty("hive.aux.jars.path", auxJars);
            }
            HiveTestJars testJars = HiveTestJars.none(repository);
            exit = runBatch(release, testJars, options.get("--engine"), warehouse, batch);
        } catch (Throwable e) {
            // An error of the session itself (out of heap, a class missing): the file it ran has no outcome.
            e.printStackTrace();
        } finally {
            // Hive's and Hadoop's non-daemon threads would keep the JVM.
            System.exit(exit);
        }
    }

    /**
     * Runs the batch's files in turn; 0, or {@link #NOT_CLEARED} after a file whose traces could not be cleared (it
     * changed a source table's files, or dropping what it made or closing its session failed): its outcome is
     * written, the files after it need a fresh JVM and warehouse.
     */
    private static int runBatch(HiveSourceRelease release, HiveTestJars testJars, String engine, Path warehouse,
            List<Entry> batch) throws Exception {
        Map<String, Optional<String>> loaded = new HashMap<>();
        SourceObjects sources = null;
        System.setProperty("test.src.tables", "");
        for (Entry entry : batch) {
            Qfile qfile = Qfile.read(entry.qfile(), testJars);
            boolean cleared = true;
            try (OutputStream log = Files.newOutputStream(entry.console())) {
                SessionStream stream = new SessionStream(log, true, StandardCharsets.UTF_8.name());
                Map<String, String> settings = settings(release, qfile, engine);
                List<String> missing = qfile.datasets().stream().filter(d -> !loaded.containsKey(d)).toList();
                if (!missing.isEmpty()) {
                    loaded.putAll(load(release, missing, settings, warehouse, stream));
                }
                QuerySession session = QuerySession.start(warehouse, settings, stream, stream);
                try {
                    if (sources == null || !missing.isEmpty()) {
                        sources = SourceObjects.snapshot(session.conf());
                        System.setProperty("test.src.tables", sources.defaultTables());
                    }
                    // A dataset that failed to load fails every file that needs it, as it did the first.
                    Optional<String> datasetError = qfile.datasets().stream().map(loaded::get)
                            .flatMap(Optional::stream).findFirst();
                    QfileOutcome outcome = datasetError.isPresent() ? new QfileOutcome(List.of(), datasetError, 0)
                            : run(session, qfile, settings, warehouse, entry.console());
                    outcome.write(entry.outcome());
                    sources.dropTheRest(session.conf());
                    if (!sources.unchanged(session.conf())) {
                        System.err.println("QfileSession: " + qfile.name() + " changed a source table's files");
                        cleared = false;
                    }
                } catch (Throwable e) {
                    if (!Files.isRegularFile(entry.outcome())) {
                        throw e;
                    }
                    System.err.println("QfileSession: the traces of " + qfile.name() + " could not be cleared:");
                    e.printStackTrace();
                    cleared = false;
                } finally {
                    try {
                        session.close();
                    } catch (Throwable e) {
                        System.err.println("QfileSession: the session of " + qfile.name() + " did not close:");
                        e.printStackTrace();
                        cleared = false;
                    }
                }
            }
            if (!cleared) {
                return NOT_CLEARED;
            }
        }
        return 0;
    }

    /**
     * Loads DATASETS in a session of their own (authorization off), as Hive's driver loads them before a file's
     * session: that one then starts as in Hive's runs, its authorizer made at its first use by the file's statements
     * (a file may SET the authorization manager first). Each dataset's failure, if it failed.
     */
    private static Map<String, Optional<String>> load(HiveSourceRelease release, List<String> datasets,
            Map<String, String> settings, Path warehouse, SessionStream console) throws Exception {
        Map<String, String> loading = new LinkedHashMap<>(settings);
        loading.put("hive.security.authorization.enabled", "false");
        QuerySession session = QuerySession.start(warehouse, loading, console, console);
        try {
            Map<String, Optional<String>> failures = new LinkedHashMap<>();
            for (String dataset : datasets) {
                failures.put(dataset, load(session, release, dataset));
            }
            return failures;
        } finally {
            session.close();
        }
    }

    /** Loads a dataset (data/files/datasets/NAME/load.hive.sql); its failure, if it failed. */
    private static Optional<String> load(QuerySession session, HiveSourceRelease release, String dataset)
            throws CommandProcessorException, IOException {
        Path script = release.datasetScript(dataset);
        if (!Files.isRegularFile(script)) {
            return Optional.of("no dataset " + dataset + " (" + script + ")");
        }
        // Hive's driver loads with its read-only hook at rest (a key Hive's SET refuses: not one of HiveConf's).
        session.conf().setBoolean("hive.test.init.phase", true);
        try {
            for (String statement : HiveQlScript.parse(Files.readString(script)).all()) {
                try {
                    session.execute(statement);
                } catch (CommandProcessorException | RuntimeException | LinkageError e) {
                    return Optional.of(dataset + ": " + firstLine(e));
                }
            }
            return Optional.empty();
        } finally {
            session.conf().setBoolean("hive.test.init.phase", false);
        }
    }

    /** The session's settings: the engine, and Hive's test configuration where it changes what a file computes. */
    static Map<String, String> settings(HiveSourceRelease release, Qfile qfile, String engine) {
        Map<String, String> settings = new LinkedHashMap<>(ENGINES.get(engine));
        // As Hive's own test configurations: every query computed, none answered from an earlier one's results,
        // and a plain SELECT run as a job rather than read by the client (data/conf's hive.fetch.task.conversion).
        settings.put("hive.query.results.cache.enabled", "false");
        settings.put("hive.fetch.task.conversion", "minimal");
        // qt:timezone: the session's and the tasks' zone (the ranks' JVMs do not share this one's default).
        qfile.timeZone().ifPresent(zone -> settings.put("hive.local.time.zone", zone));
        if (qfile.transactional()) {
            // qt:transactional, as Hive's QTestTransactional sets it.
            settings.put("hive.support.concurrency", "true");
            settings.put("hive.txn.manager", "org.apache.hadoop.hive.ql.lockmgr.DbTxnManager");
        }
        settings.putAll(TEST_SITE);
        if (qfile.authorizer()) {
            // qt:authorizer, as Hive's QTestAuthorizerHandler sets it.
            settings.put("hive.test.authz.sstd.hs2.mode", "true");
            settings.put("hive.security.authenticator.manager",
                    "org.apache.hadoop.hive.ql.security.SessionStateConfigUserAuthenticator");
            settings.put("hive.security.authorization.enabled", "true");
        }
        // The datasets' load scripts read ${hiveconf:test.data.dir}.
        settings.put("test.data.dir", release.dataFiles().toString());
        settings.put("hive.exec.pre.hooks", READ_ONLY_HOOK);
        return settings;
    }

    /** The system properties Hive's qtest driver sets, which qfiles read as ${system:NAME}. */
    static Map<String, String> testVariables(HiveSourceRelease release, Path warehouse, Path testJars)
            throws IOException {
        Path tmp = warehouse.resolve("test-tmp");
        Files.createDirectories(tmp);
        Map<String, String> variables = new LinkedHashMap<>();
        variables.put("test.tmp.dir", tmp.toString());
        variables.put("test.tmp.dir.uri", tmp.toUri().toString());
        variables.put("test.dfs.mkdir", "-mkdir -p");
        variables.put("test.warehouse.dir", warehouse.resolve("warehouse").toString());
        variables.put("test.local.warehouse.dir", warehouse.resolve("warehouse").toString());
        variables.put("test.data.dir", release.dataFiles().toString());
        variables.put("hive.root", release.root().toString());
        variables.put("hive.version", HiveVersionInfo.getVersion());
        variables.put("build.dir", tmp.toString());
        // Where the qfiles' ADD JAR finds Hive's test jars (HiveTestJars builds them as a Maven repository).
        variables.put("maven.local.repository", testJars.toString());
        return variables;
    }

    private static QfileOutcome run(QuerySession session, Qfile qfile, Map<String, String> settings, Path warehouse,
            Path console) throws IOException {
        List<QfileOutcome.Statement> statements = new ArrayList<>();
        for (String statement : qfile.statements()) {
            boolean compared = !NOT_COMPARED.matcher(statement).matches();
            try {
                List<String> rows = new ArrayList<>(session.execute(statement));
                if (RESET.matcher(statement).matches()) {
                    // Only those RESET changed: it leaves what the session started with and the file did not SET
                    // (hive.conf.restricted.list, which no SET may change, among them).
                    for (Map.Entry<String, String> setting : settings.entrySet()) {
                        if (!setting.getValue().equals(session.conf().getRaw(setting.getKey()))) {
                            session.execute("SET " + setting.getKey() + "=" + setting.getValue());
                        }
                    }
                }
                // The warehouse's path is each engine's own (INPUT__FILE__NAME, locations).
                rows.replaceAll(row -> row.replace(warehouse.toString(), "${warehouse}"));
                if (SHOW_GRANT.matcher(statement).matches()) {
                    // A grant's time (its ninth column) is when the statement ran: -1, as Hive's qtest masks it.
                    rows.replaceAll(QfileSession::withoutGrantTime);
                }
                boolean ordered = ordersItsRows(statement);
                if (!ordered && LIMIT.matcher(topLevel(statement)).find()) {
                    // Which rows a LIMIT without an ORDER BY keeps is each engine's choice: only how many.
                    rows = new ArrayList<>(QfileOutcome.countOnly(rows.size()));
                }
                if (qfile.sortResults() || !ordered) {
                    rows.sort(null);
                }
                statements.add(new QfileOutcome.Statement(statement, compared, compared ? rows : List.of(),
                        Optional.empty()));
            } catch (CommandProcessorException | RuntimeException | LinkageError e) {
                statements.add(new QfileOutcome.Statement(statement, compared, List.of(),
                        Optional.of(firstLine(e))));
                if (!"true".equalsIgnoreCase(session.conf().get("hive.cli.errors.ignore"))) {
                    break;
                }
            }
        }
        int stages = (int) DATAMPI_STAGE.matcher(Files.readString(console, StandardCharsets.UTF_8)).results().count();
        return new QfileOutcome(statements, Optional.empty(), stages);
    }

    private static final Pattern SHOW_GRANT = Pattern.compile("(?is)\\s*show\\s+grant\\b.*");

    static String withoutGrantTime(String row) {
        String[] columns = row.split("\t", -1);
        if (columns.length != 10) {
            return row;
        }
        columns[8] = "-1";
        return String.join("\t", columns);
    }

    private static final Pattern ORDER_BY = Pattern.compile("(?i)\\border\\s+by\\b");
    private static final Pattern LIMIT = Pattern.compile("(?i)\\blimit\\s+\\d");
    /**
     * What Hive's test hive-site.xml (data/conf) gives every file and the files rely on (with its restricted list, set
     * in main): its test authorizer when a file turns authorization on, the user that may take the admin role, the
     * pfile:// scheme, and the properties files read back. Its engine tuning (one reducer, no map joins, the input
     * format) is left to each engine.
     */
    private static final Map<String, String> TEST_SITE = Map.of(
            "hive.security.authorization.manager", HiveTestJars.AUTHORIZER,
            "hive.users.in.admin.role", "hive_admin_user",
            "fs.pfile.impl", "org.apache.hadoop.fs.ProxyLocalFileSystem",
            "test.var.hiveconf.property", "${hive.exec.default.partition.name}",
            "test.property1", "value1",
            "hive.test.dummystats.aggregator", "value2",
            "hive.dummyparam.test.server.specific.config.override", "from.hive-site.xml",
            "hive.dummyparam.test.server.specific.config.hivesite", "from.hive-site.xml");
    /**
     * What each engine name of bin/hive-compat sets. Hive on MR is the oracle here, not a peer timed against datampi:
     * Hive's poll of a running job (a second by default, at least a second a job) is cut to 100 ms, which changes no
     * row and, over files of a hundred jobs, a minute or more of a file's time. Its local runner's tasks stay one at a
     * time, as in Hive's own runs.
     */
    static final Map<String, Map<String, String>> ENGINES = Map.of(
            "mr", Map.of("hive.execution.engine", "mr", "hive.exec.counters.pull.interval", "100"),
            "datampi", Map.of("hive.execution.engine", "datampi", "hive.datampi.plan", "dag"),
            "datampi-mr", Map.of("hive.execution.engine", "datampi", "hive.datampi.plan", "mapreduce"));

    /**
     * Whether STATEMENT orders its result rows: an ORDER BY outside parentheses and quotes (one in a window's OVER
     * or a subquery orders nothing of the result).
     */
    static boolean ordersItsRows(String statement) {
        return ORDER_BY.matcher(topLevel(statement)).find();
    }

    /** STATEMENT with what is inside parentheses and quotes blanked out. */
    private static String topLevel(String statement) {
        StringBuilder topLevel = new StringBuilder(statement.length());
        int depth = 0;
        char quote = 0;
        for (int i = 0; i < statement.length(); i++) {
            char c = statement.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
                topLevel.append(' ');
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
                topLevel.append(' ');
            } else if (c == '(') {
                depth++;
                topLevel.append(' ');
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
                topLevel.append(' ');
            } else {
                topLevel.append(depth == 0 ? c : ' ');
            }
        }
        return topLevel.toString();
    }

    /** A failure's first line: Hive's FAILED line as its CLI prints it, else the exception's. */
    private static String firstLine(Throwable e) {
        String message = e.getMessage() == null ? "" : e.getMessage().strip();
        String line = message.lines().findFirst().orElse("");
        return line.startsWith("FAILED") ? line : e.getClass().getSimpleName() + ": " + line;
    }
}
