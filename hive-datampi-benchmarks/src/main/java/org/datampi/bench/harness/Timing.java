package org.datampi.bench.harness;

import static java.util.Objects.requireNonNull;

import java.util.Locale;

/** One timed run of a workload on an engine, as a line of timings.csv. */
public record Timing(String workload, String engine, int run, double seconds, int rows, boolean ok) {
    public static final String CSV_HEADER = "workload,engine,run,seconds,rows,status";

    public Timing {
        requireNonNull(workload, "workload is null");
        requireNonNull(engine, "engine is null");
    }

    public String toCsv() {
        return String.format(Locale.ROOT, "%s,%s,%d,%.3f,%d,%s", workload, engine, run, seconds, rows,
                ok ? "ok" : "failed");
    }

    public static Timing fromCsv(String line) {
        String[] fields = line.split(",");
        if (fields.length != 6) {
            throw new IllegalArgumentException("Not a timings.csv line (" + CSV_HEADER + "): " + line);
        }
        return new Timing(fields[0], fields[1], Integer.parseInt(fields[2]), Double.parseDouble(fields[3]),
                Integer.parseInt(fields[4]), fields[5].equals("ok"));
    }

    String describe() {
        return String.format(Locale.ROOT, "%.2f s, %d rows%s", seconds, rows, ok ? "" : ", FAILED");
    }
}
