package org.datampi.hive.session;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.hive.common.io.SessionStream;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.IDriver;
import org.apache.hadoop.hive.ql.processors.CommandProcessor;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.apache.hadoop.hive.ql.processors.CommandProcessorFactory;
import org.apache.hadoop.hive.ql.session.SessionState;

/**
 * A Hive session on the embedded default, driven through Hive's Driver API as the Hive CLI drives it: SQL goes to a
 * Driver, commands (SET, ADD JAR, ...) to their processors. Used by bin/hive-datampi and the benchmark runners.
 */
public final class QuerySession implements AutoCloseable {
    private static final String DERBY_LOG = "derby.stream.error.file";

    private final SessionState session;

    private QuerySession(SessionState session) {
        this.session = requireNonNull(session, "session is null");
    }

    /** Starts a session on the state directory; Hive's console output (progress, errors) goes to console. */
    public static QuerySession start(Path stateDir, Map<String, String> settings, SessionStream out,
            SessionStream console) {
        DataMPIEngine.install();
        // The embedded Derby metastore's own log goes with the other logs, not into the working directory.
        if (System.getProperty(DERBY_LOG) == null) {
            Path logs = stateDir.toAbsolutePath().resolve("logs");
            try {
                Files.createDirectories(logs);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot create the log directory " + logs, e);
            }
            System.setProperty(DERBY_LOG, logs.resolve("derby.log").toString());
        }
        SessionState session = new SessionState(EmbeddedHive.configuration(stateDir, settings));
        session.out = out;
        session.info = console;
        session.err = console;
        SessionState.start(session);
        return new QuerySession(session);
    }

    /**
     * Runs one statement and returns its result rows as Hive prints them (tab-separated, NULL as NULL). A failure is
     * on the session's console once, as in Hive's CLI: Hive's Driver prints its own FAILED line; the other commands'
     * errors (SET, ADD JAR) are printed here.
     */
    public List<String> execute(String statement) throws CommandProcessorException {
        SessionState.setCurrentSessionState(session);
        String[] tokens = statement.trim().split("\\s+", 2);
        CommandProcessor processor;
        try {
            processor = CommandProcessorFactory.get(tokens, session.getConf());
        } catch (SQLException e) {
            throw printed(new CommandProcessorException("FAILED: " + e.getMessage(), e));
        }
        List<String> rows = new ArrayList<>();
        if (processor instanceof IDriver driver) {
            try {
                driver.run(statement);
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
            try {
                processor.run(tokens.length > 1 ? tokens[1] : "");
            } catch (CommandProcessorException e) {
                throw printed(e);
            }
        }
        return rows;
    }

    private static CommandProcessorException printed(CommandProcessorException e) {
        SessionState.getConsole().printError(e.getMessage());
        return e;
    }

    public HiveConf conf() {
        return session.getConf();
    }

    @Override
    public void close() throws IOException {
        // The session's close ends its warm ranks (SessionRanks).
        session.close();
    }
}
