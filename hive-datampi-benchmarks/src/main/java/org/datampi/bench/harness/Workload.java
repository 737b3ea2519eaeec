package org.datampi.bench.harness;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * One benchmark query as the runners time it.
 *
 * @param name how it is reported and named on disk ({@code q1}, {@code aggregation})
 * @param statements run in order and timed together; the rows they return are the workload's result
 * @param output an untimed query run after them whose rows are the result instead (what an INSERT wrote)
 */
public record Workload(String name, List<String> statements, Optional<String> output) {
    public Workload {
        requireNonNull(name, "name is null");
        statements = List.copyOf(statements);
        requireNonNull(output, "output is null");
    }
}
