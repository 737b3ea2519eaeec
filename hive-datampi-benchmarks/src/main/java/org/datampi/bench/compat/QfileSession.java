package org.datampi.bench.compat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * Runs one qfile on one engine in a Hive session of its own, in a JVM of its own (Hive keeps state per JVM that one
 * file's session would leave to the next), over a fresh warehouse: its datasets first, then its statements one by
 * one, each statement's rows or failure kept, up to its first failure as Hive's qtest driver stops there. Writes a
 * {@link QfileOutcome}. What Hive's driver gives a file, given here: its datasets, Hive's test variables as system
 * properties (${system:test.tmp.dir} and others), itests/qtest as the working directory (the bin/hive-compat script
 * starts it there), and the engine again after a RESET (which would put the session back on the site's engine).
 */
public final class QfileSession {
    private static final String USAGE = "Usage: QfileSession --release ROOT --file QFILE --engine datampi|mr "
            + "--warehouse DIR --out OUTCOME --console LOG";
    /** Statements whose output tells the engine, the files' layout, the time or the settings: run, not compared. */
    private static final Pattern NOT_COMPARED = Pattern.compile("(?is)\\s*(explain|set|reset|dfs|add|delete|list"
            + "|reload|analyze|compile|show\\s+(create\\s+table|table\\s+extended|tblproperties|locks|compactions"
            + "|transactions|processlist|conf)|desc(ribe)?\\s+(formatted|extended|database|schema)"
            + "|desc(ribe)?\\s+\\S+\\s+(formatted|extended))\\b.*");
    private static final Pattern RESET = Pattern.compile("(?is)\\s*reset\\b.*");
    /** The console's summary line of a datampi stage (datampi: Stage-1 job_datampi..._0001 4.2 s: ...). */
    private static final Pattern DATAMPI_STAGE = Pattern.compile("(?m)^datampi: Stage-\\S+ job_datampi\\S+ [0-9.]+ s:");

    private QfileSession() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i], args[i + 1]);
        }
        for (String required : List.of("--release", "--file", "--engine", "--warehouse", "--out", "--console")) {
            if (!options.containsKey(required)) {
                System.err.println("QfileSession: " + required + " is required\n" + USAGE);
                System.exit(2);
            }
        }
        HiveSourceRelease release = new HiveSourceRelease(Path.of(options.get("--release")));
        Qfile qfile = Qfile.read(Path.of(options.get("--file")));
        Path warehouse = Path.of(options.get("--warehouse")).toAbsolutePath();
        Files.createDirectories(warehouse);
        testVariables(release, warehouse).forEach(System::setProperty);
        String engine = options.get("--engine");
        Path console = Path.of(options.get("--console"));
        int exit = 1;
        try (OutputStream log = Files.newOutputStream(console)) {
            SessionStream stream = new SessionStream(log, true, StandardCharsets.UTF_8.name());
            QfileOutcome outcome;
            try (QuerySession session = QuerySession.start(warehouse, settings(release, qfile, engine), stream,
                    stream)) {
                outcome = run(session, release, qfile, engine, warehouse, console);
            }
            outcome.write(Path.of(options.get("--out")));
            exit = 0;
        } catch (Throwable e) {
            // An error of the session itself (out of heap, a class missing): no outcome, the tool says so.
            e.printStackTrace();
        } finally {
            // Hive's and Hadoop's non-daemon threads would keep the JVM.
            System.exit(exit);
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
        // The datasets' load scripts read ${hiveconf:test.data.dir}.
        settings.put("test.data.dir", release.dataFiles().toString());
        return settings;
    }

    /** The system properties Hive's qtest driver sets, which qfiles read as ${system:NAME}. */
    static Map<String, String> testVariables(HiveSourceRelease release, Path warehouse) throws IOException {
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
        return variables;
    }

    private static QfileOutcome run(QuerySession session, HiveSourceRelease release, Qfile qfile, String engine,
            Path warehouse, Path console) throws IOException {
        for (String dataset : qfile.datasets()) {
            Path script = release.datasetScript(dataset);
            if (!Files.isRegularFile(script)) {
                return new QfileOutcome(List.of(), Optional.of("no dataset " + dataset + " (" + script + ")"), 0);
            }
            for (String statement : HiveQlScript.parse(Files.readString(script)).all()) {
                try {
                    session.execute(statement);
                } catch (CommandProcessorException | RuntimeException | LinkageError e) {
                    return new QfileOutcome(List.of(), Optional.of(dataset + ": " + firstLine(e)), 0);
                }
            }
        }
        List<QfileOutcome.Statement> statements = new ArrayList<>();
        for (String statement : qfile.statements()) {
            boolean compared = !NOT_COMPARED.matcher(statement).matches();
            try {
                List<String> rows = new ArrayList<>(session.execute(statement));
                if (RESET.matcher(statement).matches()) {
                    for (Map.Entry<String, String> setting : ENGINES.get(engine).entrySet()) {
                        session.execute("SET " + setting.getKey() + "=" + setting.getValue());
                    }
                }
                // The warehouse's path is each engine's own (INPUT__FILE__NAME, locations).
                rows.replaceAll(row -> row.replace(warehouse.toString(), "${warehouse}"));
                boolean ordered = ordersItsRows(statement);
                if (!ordered && LIMIT.matcher(topLevel(statement)).find()) {
                    // Which rows a LIMIT without an ORDER BY keeps is each engine's choice: only how many.
                    rows = new ArrayList<>(List.of(rows.size() + " rows (a LIMIT without ORDER BY)"));
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

    private static final Pattern ORDER_BY = Pattern.compile("(?i)\\border\\s+by\\b");
    private static final Pattern LIMIT = Pattern.compile("(?i)\\blimit\\s+\\d");
    /** What each engine name of bin/hive-compat sets. */
    static final Map<String, Map<String, String>> ENGINES = Map.of(
            "mr", Map.of("hive.execution.engine", "mr"),
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
