package org.datampi.bench.hs2;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import org.datampi.bench.tpch.TpchQuery;

/**
 * A user who comes and goes while others work (bin/hs2-bench --churn): opens a session, runs one statement and
 * closes the session, over and over while RUNNING says so. Every other session runs a metadata statement (SHOW
 * TABLES) to its end; the others start the short query and close the session while it runs, after a pause drawn
 * between {@value #MIN_PAUSE_MILLIS} and {@value #MAX_PAUSE_MILLIS} ms, as a user who closes Beeline mid-query
 * (HiveServer2 then cancels the query; a query that ends first is simply done). A session is closed once: by the
 * closer thread if its pause ran out first, else by this client (a Hive connection is not safe to close twice at
 * once).
 */
final class ChurnClient implements Callable<Churn> {
    private static final String METADATA = "SHOW TABLES";
    private static final int MIN_PAUSE_MILLIS = 500;
    private static final int MAX_PAUSE_MILLIS = 3000;
    /** How long a client waits before it tries again after a session could not be opened. */
    private static final long RETRY_MILLIS = 1000;

    private final String url;
    private final TpchQuery shortQuery;
    private final int id;
    private final BooleanSupplier running;

    ChurnClient(String url, TpchQuery shortQuery, int id, BooleanSupplier running) {
        this.url = requireNonNull(url, "url is null");
        this.shortQuery = requireNonNull(shortQuery, "shortQuery is null");
        this.id = id;
        this.running = requireNonNull(running, "running is null");
    }

    @Override
    public Churn call() throws InterruptedException {
        Random random = new Random(id);
        List<String> errors = new ArrayList<>();
        int sessions = 0;
        int closedMidQuery = 0;
        ScheduledExecutorService closer = Executors.newSingleThreadScheduledExecutor();
        try {
            while (running.getAsBoolean()) {
                Connection connection;
                try {
                    connection = DriverManager.getConnection(url, "hs2-churn-" + id, "");
                } catch (SQLException e) {
                    errors.add("churn client " + id + " could not open a session: " + e.getMessage());
                    Thread.sleep(RETRY_MILLIS);
                    continue;
                }
                sessions++;
                boolean midQuery = sessions % 2 == 0;
                AtomicBoolean closedByCloser = new AtomicBoolean();
                ScheduledFuture<?> close = midQuery ? closer.schedule(() -> {
                    closedByCloser.set(true);
                    closeQuietly(connection);
                }, MIN_PAUSE_MILLIS + random.nextInt(MAX_PAUSE_MILLIS - MIN_PAUSE_MILLIS), TimeUnit.MILLISECONDS)
                        : null;
                boolean finished = false;
                try (Statement statement = connection.createStatement()) {
                    statement.setQueryTimeout(ClientLoop.QUERY_TIMEOUT_SECONDS);
                    if (midQuery) {
                        for (String sql : shortQuery.statements()) {
                            if (shortQuery.isResult(sql)) {
                                JdbcRows.query(statement, sql);
                            } else {
                                statement.execute(sql);
                            }
                        }
                    } else {
                        JdbcRows.query(statement, METADATA);
                    }
                    finished = true;
                } catch (SQLException | RuntimeException e) {
                    if (closedByCloser.get() && !finished) {
                        closedMidQuery++;
                    } else if (!closedByCloser.get()) {
                        errors.add("churn client " + id + ": " + e.getMessage());
                    }
                } finally {
                    closeOnce(connection, close);
                }
            }
        } finally {
            closer.shutdownNow();
        }
        return Churn.ofOneClient(sessions, closedMidQuery, errors);
    }

    /** Closes CONNECTION unless its CLOSE task (if any) has started: then waits for that task to have closed it. */
    private static void closeOnce(Connection connection, ScheduledFuture<?> close) throws InterruptedException {
        if (close == null || close.cancel(false)) {
            closeQuietly(connection);
            return;
        }
        try {
            close.get();
        } catch (ExecutionException | CancellationException e) {
            // closeQuietly does not throw.
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException | RuntimeException e) {
            // Closing is all this client wants; a session the server already ended is closed too.
        }
    }
}
