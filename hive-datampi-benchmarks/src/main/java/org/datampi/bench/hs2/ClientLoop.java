package org.datampi.bench.hs2;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.datampi.bench.harness.ResultRows;
import org.datampi.bench.tpch.TpchQuery;

/**
 * One JDBC client of a run: its own connection (one HiveServer2 session), which runs the query set ROUNDS times,
 * starting at its own place in the set (client k of N at k/N of it), so that clients do not all run the same query at
 * the same moment. Each query's rows are checked against EXPECTED (the single client's, when there is one). Q15's view
 * is named for the client: the spec's one name would be created and dropped by every client at once. A query that
 * fails, is wrong or runs longer than {@value #QUERY_TIMEOUT_SECONDS} s is an error of its run; a client that cannot
 * connect has one error for the queries it did not run.
 */
final class ClientLoop implements Callable<List<QueryRun>> {
    /** Hive's JDBC cancels a statement after this (the server then cancels its stage): no client waits forever. */
    static final int QUERY_TIMEOUT_SECONDS = 1800;

    private final String url;
    private final List<TpchQuery> queries;
    private final int rounds;
    private final int clients;
    private final int client;
    private final long runStartNanos;
    private final Map<String, List<String>> expected;
    private final Map<String, List<String>> answers;

    /**
     * @param expected each query's rows from the single client; null for the single client itself, whose rows are
     *        the reference
     * @param answers where the client puts each query's rows it got (the single client's become the expected ones)
     */
    ClientLoop(String url, List<TpchQuery> queries, int rounds, int clients, int client, long runStartNanos,
            Map<String, List<String>> expected, Map<String, List<String>> answers) {
        this.url = requireNonNull(url, "url is null");
        this.queries = List.copyOf(queries);
        this.rounds = rounds;
        this.clients = clients;
        this.client = client;
        this.runStartNanos = runStartNanos;
        this.expected = expected;
        this.answers = requireNonNull(answers, "answers is null");
    }

    @Override
    public List<QueryRun> call() {
        List<QueryRun> runs = new ArrayList<>();
        long start = System.nanoTime();
        try (Connection connection = DriverManager.getConnection(url, "hs2-bench-" + client, "")) {
            for (int round = 0; round < rounds; round++) {
                for (int i = 0; i < queries.size(); i++) {
                    TpchQuery query = queries.get((i + client * queries.size() / clients) % queries.size());
                    runs.add(run(connection, query, round));
                }
            }
        } catch (SQLException e) {
            runs.add(new QueryRun(clients, client, runs.size() / Math.max(1, queries.size()), "connection",
                    (start - runStartNanos) / 1e9, (System.nanoTime() - start) / 1e9, 0,
                    Optional.of("client " + client + " lost or could not open its session: " + e.getMessage())));
        }
        return runs;
    }

    /** Runs QUERY on CONNECTION, its rows read and dropped: a warm-up, outside any client's timings. */
    static void untimed(Connection connection, TpchQuery query) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            execute(statement, query, "warm", new ArrayList<>());
        }
    }

    /** Runs QUERY's statements, Q15's view named with the session's OWNER, adding its result's rows to ROWS. */
    private static void execute(Statement statement, TpchQuery query, String owner, List<String> rows)
            throws SQLException {
        statement.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
        for (String sql : query.statements()) {
            String own = sql.replace("revenue0", "revenue0_" + owner);
            if (query.isResult(sql)) {
                rows.addAll(JdbcRows.query(statement, own));
            } else {
                statement.execute(own);
            }
        }
    }

    private QueryRun run(Connection connection, TpchQuery query, int round) {
        String name = query.workload().name();
        long start = System.nanoTime();
        List<String> rows = new ArrayList<>();
        Optional<String> error = Optional.empty();
        try (Statement statement = connection.createStatement()) {
            execute(statement, query, "client" + client, rows);
        } catch (SQLException e) {
            error = Optional.of(e.getMessage());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (error.isEmpty() && expected != null) {
            List<String> reference = expected.get(name);
            List<String> differences = reference == null ? List.of("the single client got no answer to compare with")
                    : ResultRows.differences(reference, "one client", rows, "client " + client, false);
            if (!differences.isEmpty()) {
                error = Optional.of("rows differ from one client's: " + String.join("; ", differences));
            }
        }
        if (error.isEmpty()) {
            answers.putIfAbsent(name, List.copyOf(rows));
        }
        return new QueryRun(clients, client, round, name, (start - runStartNanos) / 1e9, seconds, rows.size(), error);
    }
}
