package org.datampi.hive.it;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.hive.common.io.SessionStream;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.datampi.hive.session.QuerySession;

/** A real embedded Hive 4.1 session in the test JVM, on a fresh state directory, as bin/hive-datampi runs it. */
final class HiveSession implements AutoCloseable {
    static final Path HOME = Path.of(System.getProperty("datampi.home")).toAbsolutePath().normalize();

    private final QuerySession session;
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    /**
     * What every test session is given unless its test says otherwise: Hive on MR, the oracle (not a peer), polls its
     * running job every 100 ms where Hive's default is a second, which each of its jobs otherwise spends waiting; no
     * row depends on it, and datampi's MapReduce shape polls at its own interval (DataMPITask).
     */
    private static final Map<String, String> ORACLE = Map.of("hive.exec.counters.pull.interval", "100");

    HiveSession(Path stateDir, Map<String, String> settings) throws IOException {
        SessionStream consoleStream = new SessionStream(console, true, StandardCharsets.UTF_8.name());
        Map<String, String> all = new java.util.HashMap<>(ORACLE);
        all.putAll(settings);
        session = QuerySession.start(stateDir, all, consoleStream, consoleStream);
    }

    /** Runs a statement and returns its rows; fails the test if it fails. */
    List<String> query(String statement) {
        try {
            return session.execute(statement);
        } catch (CommandProcessorException e) {
            fail("Statement failed: " + statement + "\n" + e.getMessage() + "\n" + consoleText());
            return List.of();
        }
    }

    /** Runs a statement as the CLI does: its rows, or its failure. */
    List<String> execute(String statement) throws CommandProcessorException {
        return session.execute(statement);
    }

    /** Runs a statement as the CLI does: its rows or its error, and what it printed on the console. */
    EverydayStatements.Outcome outcome(String statement) {
        int before = consoleText().length();
        try {
            List<String> rows = session.execute(statement);
            return new EverydayStatements.Outcome(rows, null, consoleText().substring(before));
        } catch (CommandProcessorException e) {
            return new EverydayStatements.Outcome(List.of(), e.getMessage(), consoleText().substring(before));
        }
    }

    /** Runs a statement that is expected to fail; returns its error. */
    CommandProcessorException failure(String statement) {
        try {
            session.execute(statement);
        } catch (CommandProcessorException e) {
            return e;
        }
        fail("Statement should have failed: " + statement);
        return null;
    }

    /** An external text table over TestData's sales files. */
    void createSalesText(String table, Path files) {
        query("CREATE EXTERNAL TABLE " + table + " (" + TestData.SALES_COLUMNS + ") ROW FORMAT DELIMITED "
                + "FIELDS TERMINATED BY '|' STORED AS TEXTFILE LOCATION '" + files.toUri() + "'");
    }

    /** The session's configuration, as hive-site.xml and --hiveconf make it (neither is validated by Hive). */
    HiveConf conf() {
        return session.conf();
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

}
