package org.datampi.bench.hs2;

import java.util.ArrayList;
import java.util.List;

/**
 * What a run's churning clients did (bin/hs2-bench --churn): the sessions they opened, those they closed while their
 * query ran, and their errors: a session that could not be opened, or a statement that failed while its session
 * stayed open. Closing a session mid-query is what they do, not an error; what it must not do is disturb the server's
 * other sessions, whose answers the run checks.
 *
 * @param clients how many clients churned
 * @param sessions sessions they opened
 * @param closedMidQuery sessions closed while their query ran
 * @param errors what went wrong, one line each
 */
record Churn(int clients, int sessions, int closedMidQuery, List<String> errors) {
    static final Churn NONE = new Churn(0, 0, 0, List.of());

    Churn {
        errors = List.copyOf(errors);
    }

    /** One client's counts: clients is 1. */
    static Churn ofOneClient(int sessions, int closedMidQuery, List<String> errors) {
        return new Churn(1, sessions, closedMidQuery, errors);
    }

    /** A client that ended with an exception of its own: one error, nothing counted. */
    static Churn failed(int client, Throwable cause) {
        return ofOneClient(0, 0, List.of("churn client " + client + " failed: " + cause));
    }

    Churn plus(Churn other) {
        List<String> all = new ArrayList<>(errors);
        all.addAll(other.errors);
        return new Churn(clients + other.clients, sessions + other.sessions, closedMidQuery + other.closedMidQuery,
                all);
    }
}
