package org.datampi.bench.hs2;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/** The tables and ratio lines of bin/hs2-bench's report, from each engine's runs (one client first). */
final class ConcurrencyReport {
    private ConcurrencyReport() {
    }

    /**
     * A table per engine, a row per client count: time, queries per minute, the concurrency factor, latency p50, p95
     * and max over every query, SHORT_QUERY's p95 under load over its p95 alone, errors, groups of ranks started
     * (datampi's engines only), peak memory; under it, what a run's churning clients did.
     */
    static String markdown(Map<String, List<ClientRun>> results, String shortQuery) {
        StringBuilder text = new StringBuilder();
        results.forEach((engine, runs) -> {
            ClientRun alone = runs.get(0);
            text.append("**").append(engine).append("**\n\n")
                    .append("| clients | time (s) | queries/min | concurrency factor | p50 (s) | p95 (s) | max (s) | ")
                    .append(shortQuery).append(" p95 / alone | errors | groups of ranks started | peak memory (MB) |\n")
                    .append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for (ClientRun run : runs) {
                text.append(String.format(Locale.ROOT,
                        "| %s | %.1f | %.1f | %.2f | %s | %s | %s | %s | %d | %s | %,d |%n", clientsOf(run),
                        run.wallSeconds(), run.queriesPerMinute(), run.concurrencyFactor(alone),
                        ClientRun.seconds(run.percentile(50, null)), ClientRun.seconds(run.percentile(95, null)),
                        ClientRun.seconds(run.percentile(100, null)), ratio(run.percentile(95, shortQuery),
                                alone.percentile(95, shortQuery)), run.errors(),
                        engine.startsWith("datampi") ? Integer.toString(run.groupsStarted()) : "-",
                        run.peakMegabytes()));
            }
            text.append('\n');
            runs.stream().filter(run -> run.churn().clients() > 0).forEach(run -> text.append(String.format(
                    Locale.ROOT, "With %d clients at work, %d more opened %,d sessions, ran SHOW TABLES or %s in "
                    + "each, and closed %,d of them while %s ran; errors of the churning clients: %d.%s%n%n",
                    run.clients(), run.churn().clients(), run.churn().sessions(), shortQuery,
                    run.churn().closedMidQuery(), shortQuery, run.churn().errors().size(),
                    run.churn().errors().isEmpty() ? "" : " The first: "
                            + run.churn().errors().get(0).replaceAll("\\s+", " "))));
        });
        return text.toString();
    }

    /** "4", or "4 + 16 churning" for a run with churning clients. */
    private static String clientsOf(ClientRun run) {
        return run.churn().clients() == 0 ? Integer.toString(run.clients())
                : run.clients() + " + " + run.churn().clients() + " churning";
    }

    /**
     * {@code datampi_concurrency_factor_at_4=0.83}: a line per engine and client count above one, without churning
     * clients (a run with them is the same clients' work under more load: its row shows its factor).
     */
    static List<String> factorLines(Map<String, List<ClientRun>> results) {
        List<String> lines = new ArrayList<>();
        results.forEach((engine, runs) -> runs.stream().filter(run -> run.clients() > 1 && run.churn().clients() == 0)
                .forEach(run ->
                lines.add(String.format(Locale.ROOT, "%s_concurrency_factor_at_%d=%.2f", engine, run.clients(),
                        run.concurrencyFactor(runs.get(0))))));
        return lines;
    }

    private static String ratio(OptionalDouble loaded, OptionalDouble alone) {
        return loaded.isPresent() && alone.isPresent() && alone.getAsDouble() > 0
                ? String.format(Locale.ROOT, "%.2f", loaded.getAsDouble() / alone.getAsDouble()) : "-";
    }
}
