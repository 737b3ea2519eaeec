package org.datampi.hive.it;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.datampi.hive.session.DataMPIEngine;
import org.datampi.hive.session.EmbeddedHive;

/** A real embedded Hive 4.1 session in the test JVM, on a fresh state directory, as bin/hive-datampi runs it. */
final class HiveSession implements AutoCloseable {
    static final Path HOME = findHome();

    private final SessionState session;
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    HiveSession(Path stateDir, Map<String, String> settings) throws IOException {
        System.setProperty("datampi.home", HOME.toString());
        DataMPIEngine.install();
        HiveConf conf = EmbeddedHive.configuration(stateDir, settings);
        session = new SessionState(conf);
        SessionStream consoleStream = new SessionStream(console, true, StandardCharsets.UTF_8.name());
        session.out = consoleStream;
        session.info = consoleStream;
        session.err = consoleStream;
        SessionState.start(session);
    }

    /** Runs a statement and returns its rows; fails the test if it fails. */
    List<String> query(String statement) {
        try {
            return run(statement);
        } catch (CommandProcessorException e) {
            fail("Statement failed: " + statement + "\n" + e.getMessage() + "\n" + consoleText());
            return List.of();
        }
    }

    /** Runs a statement that is expected to fail; returns its error. */
    CommandProcessorException failure(String statement) {
        try {
            run(statement);
        } catch (CommandProcessorException e) {
            return e;
        }
        fail("Statement should have failed: " + statement);
        return null;
    }

    private List<String> run(String statement) throws CommandProcessorException {
        SessionState.setCurrentSessionState(session);
        String[] tokens = statement.trim().split("\\s+", 2);
        try {
            CommandProcessor processor = CommandProcessorFactory.get(tokens, session.getConf());
            List<String> rows = new ArrayList<>();
            if (processor instanceof IDriver driver) {
                try {
                    driver.run(statement);
                    List<String> batch = new ArrayList<>();
                    while (driver.getResults(batch)) {
                        rows.addAll(batch);
                        batch.clear();
                    }
                } finally {
                    driver.close();
                }
            } else {
                processor.run(tokens.length > 1 ? tokens[1] : "");
            }
            return rows;
        } catch (SQLException | IOException e) {
            throw new IllegalStateException(statement, e);
        }
    }

    void setEngine(String engine) {
        query("SET hive.execution.engine=" + engine);
    }

    /** What Hive printed on its console (progress, errors) since the session began. */
    String consoleText() {
        return console.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws Exception {
        session.close();
    }

    private static Path findHome() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isExecutable(dir.resolve("bin/mpidrun"))) {
                return dir;
            }
        }
        throw new IllegalStateException("bin/mpidrun not found above " + Path.of("").toAbsolutePath());
    }
}
