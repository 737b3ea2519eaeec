package org.datampi.bench.harness;

import static java.util.Objects.requireNonNull;

import java.util.Locale;

/**
 * One timed run of a workload on an engine, as a line of timings.csv.
 *
 * @param seconds the run's wall time, Hive's compile included
 * @param compileSeconds of which Hive's compile of the workload's statements (parser, planner, metastore calls and
 *     Hive's task compiler: the same for Tez and datampi's DAG shape); NaN when not known (a timings.csv written before
 *     compile was recorded)
 */
public record Timing(String workload, String engine, int run, double seconds, int rows, boolean ok,
        double compileSeconds) {
    public static final String CSV_HEADER = "workload,engine,run,seconds,rows,status,compile_seconds";

    public Timing {
        requireNonNull(workload, "workload is null");
        requireNonNull(engine, "engine is null");
    }

    public String toCsv() {
        return String.format(Locale.ROOT, "%s,%s,%d,%.3f,%d,%s,%.3f", workload, engine, run, seconds, rows,
                ok ? "ok" : "failed", compileSeconds);
    }

    /** A line of timings.csv; one without compile_seconds (written before it was recorded) has it NaN. */
    public static Timing fromCsv(String line) {
        String[] fields = line.split(",");
        if (fields.length != 7 && fields.length != 6) {
            throw new IllegalArgumentException("Not a timings.csv line (" + CSV_HEADER + "): " + line);
        }
        return new Timing(fields[0], fields[1], Integer.parseInt(fields[2]), Double.parseDouble(fields[3]),
                Integer.parseInt(fields[4]), fields[5].equals("ok"),
                fields.length == 7 ? Double.parseDouble(fields[6]) : Double.NaN);
    }

    String describe() {
        return String.format(Locale.ROOT, "%.2f s (Hive's compile %.2f s), %d rows%s", seconds, compileSeconds, rows,
                ok ? "" : ", FAILED");
    }
}
