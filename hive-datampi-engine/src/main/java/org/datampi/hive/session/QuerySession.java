package org.datampi.hive.session;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.hadoop.hive.common.io.SessionStream;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.conf.VariableSubstitution;
import org.apache.hadoop.hive.ql.IDriver;
import org.apache.hadoop.hive.ql.QueryDisplay;
import org.apache.hadoop.hive.ql.log.PerfLogger;
import org.apache.hadoop.hive.ql.processors.CommandProcessor;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.apache.hadoop.hive.ql.processors.CommandProcessorFactory;
import org.apache.hadoop.hive.ql.processors.SetProcessor;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.datampi.hive.conf.DataMPISettings;
import org.datampi.hive.plan.DataMPIEngine;

/**
 * A Hive session on the embedded default, driven through Hive's Driver API as the Hive CLI drives it: SQL goes to a
 * Driver, commands (SET, ADD JAR, ...) to their processors. Used by bin/hive-datampi and the benchmark runners.
 *
 * <p>Not thread-safe: one thread runs a session's statements, as in Hive's CLI.
 */
public final class QuerySession implements AutoCloseable {
    private final SessionState session;
    private final Path stateDir;
    /** Hive's compile time of the last statement run, in seconds: 0 for a command. */
    private double lastCompileSeconds;

    private QuerySession(SessionState session, Path stateDir) {
        this.session = requireNonNull(session, "session is null");
        this.stateDir = requireNonNull(stateDir, "stateDir is null");
    }

    /** Starts a session on the state directory; Hive's console output (progress, errors) goes to console. */
    public static QuerySession start(Path stateDir, Map<String, String> settings, SessionStream out,
            SessionStream console) {
        EmbeddedMetastore.configureDerby(stateDir);
        HiveConf conf = EmbeddedHive.configuration(stateDir, settings);
        DataMPIEngine.install(conf);
        EmbeddedMetastore.prepare(conf, stateDir);
        SessionState session = new SessionState(conf);
        session.out = out;
        session.info = console;
        session.err = console;
        SessionState.start(session);
        return new QuerySession(session, stateDir);
    }

    /**
     * Runs one statement and returns its result rows as Hive prints them (tab-separated, NULL as NULL). A failure is
     * on the session's console once, as in Hive's CLI: Hive's Driver prints its own FAILED line; the other commands'
     * errors (SET, ADD JAR) are printed here.
     */
    public List<String> execute(String statement) throws CommandProcessorException {
        SessionState.setCurrentSessionState(session);
        EmbeddedTxnServices.startFor(session.getConf(), false);
        // Routed as Hive's CLI routes a statement (CliDriver.processCmd): every word goes to CommandProcessorFactory,
        // whose HiveCommand looks past the first (SET ROLE, DELETE FROM and SET AUTOCOMMIT are SQL, not commands).
        String trimmed = statement.trim();
        String[] tokens = trimmed.split("\\s+");
        CommandProcessor processor;
        try {
            processor = CommandProcessorFactory.get(tokens, session.getConf());
        } catch (SQLException e) {
            throw printed(new CommandProcessorException("FAILED: " + e.getMessage(), e));
        }
        List<String> rows = new ArrayList<>();
        lastCompileSeconds = 0;
        if (processor instanceof IDriver driver) {
            try {
                driver.run(statement);
                lastCompileSeconds = compileSeconds(driver);
                List<String> batch = new ArrayList<>();
                while (driver.getResults(batch)) {
                    rows.addAll(batch);
                    batch.clear();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot fetch the results of: " + statement, e);
            } finally {
                driver.close();
            }
        } else if (processor != null) {
            String arguments = trimmed.substring(tokens[0].length()).trim();
            Optional<String> datampiKey = processor instanceof SetProcessor ? datampiKeyOf(arguments)
                    : Optional.empty();
            String before = datampiKey.map(session.getConf()::get).orElse(null);
            try {
                processor.run(arguments);
                if (datampiKey.isPresent()) {
                    refuseInvalid(datampiKey.get(), before);
                }
            } catch (CommandProcessorException e) {
                throw printed(e);
            }
        }
        return rows;
    }

    /**
     * Hive's compile time of the last statement {@link #execute} ran (parse, analysis, optimization, the task
     * compiler: Hive's "Completed compiling command ... Time taken"), in seconds; 0 for a command (SET, ADD JAR) or
     * a statement that failed. The part of a query's time that is mostly the same whatever engine runs it. When Hive
     * runs a query again (its re-execution plugins) it is the last compile's: the earlier compile counts as the run's.
     */
    public double lastCompileSeconds() {
        return lastCompileSeconds;
    }

    private static double compileSeconds(IDriver driver) {
        Long millis = driver.getQueryDisplay().getPerfLogTimes(QueryDisplay.Phase.COMPILATION).get(PerfLogger.COMPILE);
        return millis == null ? 0 : millis / 1e3;
    }

    /** The datampi setting a SET assigns ("hive.datampi.heap=4g", "hiveconf:hive.datampi.heap = 4g"), if any. */
    private static Optional<String> datampiKeyOf(String arguments) {
        int equals = arguments.indexOf('=');
        if (equals < 0) {
            return Optional.empty();
        }
        String key = arguments.substring(0, equals).trim();
        key = key.startsWith("hiveconf:") ? key.substring("hiveconf:".length()) : key;
        return DataMPISettings.ALL.contains(key) ? Optional.of(key) : Optional.empty();
    }

    /**
     * Refuses a datampi setting that was just SET to a value the engine would refuse (DataMPISettings.validate),
     * restoring the value it had BEFORE, so that the mistake is named at the SET rather than at the next stage.
     */
    private void refuseInvalid(String key, String before) throws CommandProcessorException {
        HiveConf conf = session.getConf();
        try {
            DataMPISettings.validate(conf, key);
        } catch (IllegalArgumentException e) {
            if (before == null) {
                conf.unset(key);
            } else {
                conf.set(key, before);
            }
            throw new CommandProcessorException("FAILED: SET " + key + ": " + e.getMessage(), e);
        }
    }

    private static CommandProcessorException printed(CommandProcessorException e) {
        SessionState.getConsole().printError(e.getMessage());
        return e;
    }

    /**
     * Refreshes the embedded metastore's index statistics of the tables that changed since the session started, as
     * its start did for what changed before it (EmbeddedMetastore.prepare): for a session that loaded many
     * partitions and goes on to query them.
     */
    public void refreshMetastoreStatistics() {
        EmbeddedMetastore.prepare(session.getConf(), stateDir);
    }

    /** TEXT with the session's ${...} variables (hivevar, hiveconf, system, env) substituted, as Hive's CLI does. */
    public String substituteVariables(String text) {
        return new VariableSubstitution(session::getHiveVariables).substitute(session.getConf(), text);
    }

    public HiveConf conf() {
        return session.getConf();
    }

    @Override
    public void close() throws IOException {
        // A shell's JVM has one session: the compactor and housekeeping it started end with it, before a session on
        // another metastore could start (tests and benchmark runners start several, one after another).
        EmbeddedTxnServices.stopFor(session.getConf());
        // The session's close ends its warm ranks (SessionRanks).
        session.close();
    }
}
