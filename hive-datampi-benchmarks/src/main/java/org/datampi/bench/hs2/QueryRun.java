package org.datampi.bench.hs2;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Optional;

/**
 * One query as one client ran it: when it started (seconds from the start of the run), how long it took, and its
 * error, if it failed or its rows were not those the single client got.
 *
 * @param clients how many clients ran at once in this run
 * @param client which of them (0-based)
 * @param round the client's pass over the query set (0-based)
 * @param query its name, qN
 * @param startSeconds when it started, from the start of the run
 * @param seconds how long it took
 * @param rows how many rows it returned
 * @param error why it failed or was wrong; empty when its rows were right
 */
public record QueryRun(int clients, int client, int round, String query, double startSeconds, double seconds,
        int rows, Optional<String> error) {
    public static final String CSV_HEADER = "clients,client,round,query,start_seconds,seconds,rows,status";

    public QueryRun {
        requireNonNull(query, "query is null");
        requireNonNull(error, "error is null");
    }

    public boolean ok() {
        return error.isEmpty();
    }

    public String toCsv() {
        return String.format(Locale.ROOT, "%d,%d,%d,%s,%.3f,%.3f,%d,%s", clients, client, round, query, startSeconds,
                seconds, rows, ok() ? "ok" : "error");
    }
}
