package org.datampi.bench.hs2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** bin/hs2-bench's arithmetic: time, throughput, the concurrency factor, percentiles, and the report's lines. */
class ClientRunTest {
    /** One client: q1 (4 s) then q6 (1 s), twice: 10 s. */
    private static final ClientRun ALONE = new ClientRun(1, List.of(run(1, 0, 0, "q1", 0, 4), run(1, 0, 0, "q6", 4, 1),
            run(1, 0, 1, "q1", 5, 4), run(1, 0, 1, "q6", 9, 1)), 1, 3_000);

    @Test
    void twoClientsThatOverlapGetMoreDoneThanOneAfterTheOther() {
        // The same work for each of two clients, in 16 s where one after the other would take 20: factor 0.8.
        List<QueryRun> queries = new ArrayList<>();
        for (int client = 0; client < 2; client++) {
            double start = client * 0.5;
            queries.add(run(2, client, 0, "q1", start, 6));
            queries.add(run(2, client, 0, "q6", start + 6, 2));
            queries.add(run(2, client, 1, "q1", start + 8, 6));
            queries.add(run(2, client, 1, "q6", start + 14, 1.5));
        }
        ClientRun two = new ClientRun(2, queries, 1, 4_500);
        assertEquals(10, ALONE.wallSeconds(), 1e-9);
        assertEquals(16, two.wallSeconds(), 1e-9);
        assertEquals(0.8, two.concurrencyFactor(ALONE), 1e-9);
        assertEquals(30, two.queriesPerMinute(), 1e-9, "8 queries in 16 s");
        assertEquals(2, two.percentile(50, null).getAsDouble(), 1e-9, "nearest rank: the 4th of 8");
        assertEquals(6, two.percentile(95, null).getAsDouble(), 1e-9);
        assertEquals(2, two.percentile(95, "q6").getAsDouble(), 1e-9);
        assertEquals(1.5, two.percentile(50, "q6").getAsDouble(), 1e-9);
        assertTrue(two.percentile(95, "q2").isEmpty(), "a query that never ran has no percentile");
        assertEquals(0, two.errors());

        Map<String, List<ClientRun>> results = Map.of("datampi", List.of(ALONE, two));
        assertEquals(List.of("datampi_concurrency_factor_at_2=0.80"), ConcurrencyReport.factorLines(results));
        String table = ConcurrencyReport.markdown(results, "q6");
        assertTrue(table.contains("| 1 | 10.0 | 24.0 | 1.00 | 1.00 | 4.00 | 4.00 | 1.00 | 0 | 1 | 3,000 |"), table);
        assertTrue(table.contains("| 2 | 16.0 | 30.0 | 0.80 | 2.00 | 6.00 | 6.00 | 2.00 | 0 | 1 | 4,500 |"), table);
    }

    @Test
    void aWrongOrFailedQueryIsAnError() {
        ClientRun run = new ClientRun(1, List.of(run(1, 0, 0, "q1", 0, 1),
                new QueryRun(1, 0, 0, "q2", 1, 1, 0, Optional.of("rows differ from one client's"))), 1, 100);
        assertEquals(1, run.errors());
        assertEquals("1,0,0,q2,1.000,1.000,0,error", run.queries().get(1).toCsv());
    }

    /**
     * Churning clients beside a run: their errors are the run's, their sessions are told under the table, and the
     * run has no concurrency factor line (that line is for runs of the clients alone; the run's row has its factor).
     */
    @Test
    void churningClientsAreReportedApartAndTheirErrorsCount() {
        List<QueryRun> queries = List.of(run(2, 0, 0, "q1", 0, 5), run(2, 0, 0, "q6", 5, 1),
                run(2, 1, 0, "q6", 0, 2), run(2, 1, 0, "q1", 2, 6));
        ClientRun plain = new ClientRun(2, queries, 1, 4_000);
        Churn churn = Churn.ofOneClient(7, 3, List.of()).plus(Churn.ofOneClient(6, 3,
                List.of("churn client 1 could not open a session: refused")));
        ClientRun churned = new ClientRun(2, queries, 2, 4_200, churn);
        assertEquals(2, churn.clients());
        assertEquals(1, churned.errors(), "the churning client's error is the run's");
        Map<String, List<ClientRun>> results = Map.of("datampi", List.of(ALONE, plain, churned));
        assertEquals(List.of("datampi_concurrency_factor_at_2=0.40"), ConcurrencyReport.factorLines(results));
        String table = ConcurrencyReport.markdown(results, "q6");
        assertTrue(table.contains("| 2 + 2 churning | 8.0 | 30.0 | 0.40 |"), table);
        assertTrue(table.contains("With 2 clients at work, 2 more opened 13 sessions, ran SHOW TABLES or q6 in each, "
                + "and closed 6 of them while q6 ran; errors of the churning clients: 1. The first: churn client 1 "
                + "could not open a session: refused"), table);
    }

    private static QueryRun run(int clients, int client, int round, String query, double start, double seconds) {
        return new QueryRun(clients, client, round, query, start, seconds, 1, Optional.empty());
    }
}
