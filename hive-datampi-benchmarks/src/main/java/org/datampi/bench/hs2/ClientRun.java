package org.datampi.bench.hs2;

import static java.util.Objects.requireNonNull;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * What one run of N clients at once did: every query each client ran, how many groups of ranks the server started
 * meanwhile, the peak memory of the server's process tree, and what churning clients (if any) did beside them.
 *
 * @param clients N
 * @param queries every query every client ran
 * @param groupsStarted groups of ranks (mpidrun --serve) the server started during the run
 * @param peakMegabytes the engine's processes at their largest: HiveServer2's tree (mpirun and ranks for datampi),
 *        and for tez-yarn YARN's daemons and their containers
 * @param churn what the run's churning clients did ({@link Churn#NONE}: there were none)
 */
record ClientRun(int clients, List<QueryRun> queries, int groupsStarted, long peakMegabytes, Churn churn) {
    ClientRun {
        queries = List.copyOf(queries);
        requireNonNull(churn, "churn is null");
    }

    /** A run without churning clients. */
    ClientRun(int clients, List<QueryRun> queries, int groupsStarted, long peakMegabytes) {
        this(clients, queries, groupsStarted, peakMegabytes, Churn.NONE);
    }

    /** From the first query's start to the last one's end. */
    double wallSeconds() {
        return queries.stream().mapToDouble(run -> run.startSeconds() + run.seconds()).max().orElse(0)
                - queries.stream().mapToDouble(QueryRun::startSeconds).min().orElse(0);
    }

    double queriesPerMinute() {
        return queries.size() * 60 / wallSeconds();
    }

    /** The clients' failed or wrong queries and the churning clients' errors. */
    long errors() {
        return queries.stream().filter(run -> !run.ok()).count() + churn.errors().size();
    }

    /**
     * Total time for N clients over N times one client's time for the same work (each client runs the same queries
     * the same number of times): below 1, N clients at once get more done than one after another; 1, no better.
     */
    double concurrencyFactor(ClientRun alone) {
        return wallSeconds() / (clients * alone.wallSeconds());
    }

    /** The P-th percentile (nearest rank) of the latencies of QUERY (null: every query); empty if it never ran. */
    OptionalDouble percentile(double p, String query) {
        List<Double> seconds = queries.stream().filter(run -> query == null || run.query().equals(query))
                .map(QueryRun::seconds).sorted(Comparator.naturalOrder()).toList();
        if (seconds.isEmpty()) {
            return OptionalDouble.empty();
        }
        int rank = (int) Math.ceil(p / 100 * seconds.size());
        return OptionalDouble.of(seconds.get(Math.max(0, rank - 1)));
    }

    static String seconds(OptionalDouble value) {
        return value.isPresent() ? String.format(Locale.ROOT, "%.2f", value.getAsDouble()) : "-";
    }
}
