package org.datampi.hive.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.hive.common.cli.ShellCmdExecutor;
import org.apache.hadoop.hive.common.io.SessionStream;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.datampi.hive.session.QuerySession;

import jline.console.ConsoleReader;
import jline.console.history.FileHistory;

/**
 * bin/hive-datampi: a HiveQL shell on Hive's Driver API, the way Hive CLI users know it. Query results go to stdout
 * as tab-separated rows without a header; progress, logs and errors go to stderr and the log file. The exit code is
 * non-zero when a statement fails.
 */
public final class HiveDatampiCli {
    static final String STATE_VARIABLE = "HIVE_DATAMPI_STATE";
    /** Read by conf/hive-datampi-log4j2.properties; set before Hive logs anything. */
    static final String LOG_DIR_PROPERTY = "hive.datampi.log.dir";
    private static final String USAGE = """
            Usage: hive-datampi [options]
              -e "SQL"                 run the statements and exit
              -f FILE                  run the statements of FILE and exit
              --hiveconf KEY=VALUE     a Hive setting for this session (repeatable)
              --database DB            start in database DB
              --warehouse DIR          the state directory: metastore, warehouse, scratch, logs
                                       (default $HIVE_DATAMPI_STATE, else $DATAMPI_HOME/state)
              -h, --help               this help
            Without -e or -f: an interactive prompt with line editing and history.""";

    private final PrintStream out;
    private final PrintStream err;
    private final QuerySession session;

    private HiveDatampiCli(QuerySession session, PrintStream out, PrintStream err) {
        this.session = session;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) throws Exception {
        SessionStream out = new SessionStream(System.out, true, StandardCharsets.UTF_8.name());
        SessionStream err = new SessionStream(System.err, true, StandardCharsets.UTF_8.name());
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("hive-datampi: " + e.getMessage());
            err.println(USAGE);
            System.exit(2);
            return;
        }
        if (options.help) {
            out.println(USAGE);
            return;
        }
        System.exit(run(options, out, err));
    }

    static int run(Options options, SessionStream out, SessionStream err) throws IOException {
        // A script that cannot be read is refused before Hive starts (seconds), naming it, as Hive's CLI does (3).
        String script = options.execute;
        if (options.file != null) {
            try {
                script = Files.readString(Path.of(options.file));
            } catch (IOException e) {
                String reason = e instanceof NoSuchFileException ? "no such file"
                        : e instanceof AccessDeniedException ? "permission denied"
                        : e instanceof CharacterCodingException ? "not UTF-8 text" : e.getMessage();
                err.println("hive-datampi: cannot read the script " + options.file + " (-f): " + reason);
                return 3;
            }
        }
        System.setProperty(LOG_DIR_PROPERTY, options.stateDir().resolve("logs").toAbsolutePath().toString());
        QuerySession session = QuerySession.start(options.stateDir(), options.settings, out, err);
        HiveDatampiCli cli = new HiveDatampiCli(session, out, err);
        try {
            if (options.database != null && cli.execute("USE " + options.database) != Outcome.DONE) {
                return 1;
            }
            if (script != null) {
                return cli.runAll(HiveQlScript.parse(script).all());
            }
            return cli.interactive(options.stateDir());
        } finally {
            session.close();
        }
    }

    /**
     * Runs the statements of -e or -f, as Hive's CLI does: up to the first that fails, unless hive.cli.errors.ignore
     * (read before each statement, so that a script may SET it); then the exit code is 1 if any failed. QUIT or EXIT
     * ends the run there, successfully.
     */
    private int runAll(List<String> statements) {
        Outcome outcome = runScript(statements);
        return outcome == Outcome.FAILED ? 1 : 0;
    }

    private Outcome runScript(List<String> statements) {
        boolean failed = false;
        for (String statement : statements) {
            Outcome outcome = execute(statement);
            if (outcome == Outcome.QUIT) {
                return failed ? Outcome.FAILED : Outcome.QUIT;
            }
            if (outcome == Outcome.FAILED) {
                failed = true;
                if (!session.conf().getBoolVar(HiveConf.ConfVars.CLI_IGNORE_ERRORS)) {
                    return Outcome.FAILED;
                }
            }
        }
        return failed ? Outcome.FAILED : Outcome.DONE;
    }

    private int interactive(Path stateDir) throws IOException {
        ConsoleReader reader = new ConsoleReader();
        Files.createDirectories(stateDir);
        FileHistory history = new FileHistory(stateDir.resolve("history").toFile());
        reader.setHistory(history);
        String pending = "";
        try {
            while (true) {
                String line = reader.readLine(pending.isEmpty() ? "hive-datampi> " : "            > ");
                if (line == null) {
                    return 0;
                }
                HiveQlScript script = HiveQlScript.parse(pending + "\n" + line);
                for (String statement : script.statements()) {
                    if (execute(statement) == Outcome.QUIT) {
                        return 0;
                    }
                }
                pending = script.rest();
            }
        } finally {
            history.flush();
        }
    }

    /** What running one statement came to. */
    private enum Outcome { DONE, FAILED, QUIT }

    /**
     * Runs one statement; prints its rows, or its error. Ctrl-C meanwhile cancels it ({@link StatementInterrupts}).
     * The shell's own commands come first, as in Hive's CLI (CliDriver.processCmd): QUIT and EXIT, {@code source
     * FILE} (its statements run here, the file's name with Hive's variables substituted) and {@code !COMMAND} (run
     * by Hive's ShellCmdExecutor, without a shell, as Hive's CLI runs it); everything else goes to the session, which
     * routes it as Hive does.
     */
    private Outcome execute(String statement) {
        String trimmed = statement.trim();
        String firstWord = trimmed.split("\\s+", 2)[0];
        if (trimmed.equalsIgnoreCase("quit") || trimmed.equalsIgnoreCase("exit")) {
            return Outcome.QUIT;
        }
        if (firstWord.equalsIgnoreCase("source")) {
            return source(session.substituteVariables(trimmed.substring(firstWord.length()).trim()));
        }
        if (trimmed.startsWith("!")) {
            return shell(session.substituteVariables(trimmed.substring(1)));
        }
        try (StatementInterrupts interrupts = StatementInterrupts.whileRunning(err)) {
            session.execute(statement).forEach(out::println);
            return Outcome.DONE;
        } catch (CommandProcessorException e) {
            // Already on the console (QuerySession.execute).
            return Outcome.FAILED;
        } catch (RuntimeException e) {
            err.println("FAILED: " + e);
            return Outcome.FAILED;
        }
    }

    private Outcome source(String file) {
        String text;
        try {
            text = Files.readString(Path.of(file));
        } catch (IOException | RuntimeException e) {
            err.println("FAILED: source " + file + ": " + (e instanceof NoSuchFileException ? "no such file" : e));
            return Outcome.FAILED;
        }
        return runScript(HiveQlScript.parse(text).all());
    }

    private Outcome shell(String command) {
        try {
            int exitCode = new ShellCmdExecutor(command, out, err).execute();
            if (exitCode != 0) {
                err.println("FAILED: !" + command + ": exit code " + exitCode);
                return Outcome.FAILED;
            }
            return Outcome.DONE;
        } catch (Exception e) {
            err.println("FAILED: !" + command + ": " + e.getMessage());
            return Outcome.FAILED;
        }
    }

    /** The command line. */
    static final class Options {
        private final Map<String, String> settings = new LinkedHashMap<>();
        private String execute;
        private String file;
        private String database;
        private String warehouse;
        private boolean help;

        static Options parse(String[] args) {
            Options options = new Options();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                switch (arg) {
                    case "-h", "--help" -> options.help = true;
                    case "-e" -> options.execute = value(args, ++i, arg);
                    case "-f" -> options.file = value(args, ++i, arg);
                    case "--database" -> options.database = value(args, ++i, arg);
                    case "--warehouse" -> options.warehouse = value(args, ++i, arg);
                    case "--hiveconf" -> hiveconf(value(args, ++i, arg), options.settings);
                    default -> throw new IllegalArgumentException("unknown option '" + arg + "'");
                }
            }
            if (options.execute != null && options.file != null) {
                throw new IllegalArgumentException("-e and -f cannot be used together");
            }
            return options;
        }

        /** The value after OPTION, which is the INDEX-th argument. */
        static String value(String[] args, int index, String option) {
            if (index >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[index];
        }

        /** VALUE of OPTION as a port number, or an error naming the option. */
        static int port(String value, String option) {
            try {
                int port = Integer.parseInt(value);
                if (port > 0 && port < 65536) {
                    return port;
                }
            } catch (NumberFormatException e) {
                // Named below.
            }
            throw new IllegalArgumentException(option + " needs a port number (1-65535), got '" + value + "'");
        }

        /** --hiveconf KEY=VALUE, into SETTINGS. */
        static void hiveconf(String setting, Map<String, String> settings) {
            int equals = setting.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("--hiveconf needs KEY=VALUE, got '" + setting + "'");
            }
            settings.put(setting.substring(0, equals).trim(), setting.substring(equals + 1));
        }

        Path stateDir() {
            return stateDir(warehouse);
        }

        /** --warehouse DIR when given (null: not), else $HIVE_DATAMPI_STATE, else $DATAMPI_HOME/state. */
        static Path stateDir(String warehouse) {
            if (warehouse != null) {
                return Path.of(warehouse);
            }
            String fromEnvironment = System.getenv(STATE_VARIABLE);
            if (fromEnvironment != null && !fromEnvironment.isBlank()) {
                return Path.of(fromEnvironment);
            }
            return Path.of(System.getProperty("datampi.home", "."), "state");
        }
    }
}
