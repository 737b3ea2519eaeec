package org.datampi.bench.tpch;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.hadoop.hive.common.io.SessionStream;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.datampi.hive.session.QuerySession;

/**
 * bin/tpch-run: runs TPC-H queries on one engine in one Hive session (a warm JVM, as a user's session is), writes
 * each query's result rows to {@code OUT/qN.tsv} and every run's time to {@code OUT/timings.csv}.
 *
 * <p>Arguments: {@code --scale SF --format text|orc|rcfile --engine datampi|mr|tez --out DIR [--queries 1-22]
 * [--runs N] [--warehouse DIR]}.
 */
public final class TpchRunner {
    private TpchRunner() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>(Map.of("--queries", "1-22", "--runs", "1"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i], args[i + 1]);
        }
        for (String required : List.of("--scale", "--format", "--engine", "--out")) {
            if (!options.containsKey(required)) {
                throw new IllegalArgumentException("Usage: tpch-run --scale SF --format text|orc|rcfile --engine "
                        + "datampi|mr|tez --out DIR [--queries 1-22] [--runs N] [--warehouse DIR]; missing " + required);
            }
        }
        double scale = Double.parseDouble(options.get("--scale"));
        String format = options.get("--format");
        String engine = options.get("--engine");
        Path out = Files.createDirectories(Path.of(options.get("--out")));
        List<Integer> queries = parseQueries(options.get("--queries"));
        int runs = Integer.parseInt(options.get("--runs"));
        Path home = Path.of(System.getProperty("datampi.home", "."));
        Path state = Path.of(options.getOrDefault("--warehouse", home.resolve("state").toString()));
        String database = "tpch_sf" + options.get("--scale").replace('.', '_') + "_" + format;

        SessionStream console = new SessionStream(System.err, true, StandardCharsets.UTF_8.name());
        SessionStream ignored = new SessionStream(OutputStream.nullOutputStream());
        List<String> timings = new ArrayList<>(List.of("query,run,engine,format,scale,seconds,rows,status"));
        int failures = 0;
        try (QuerySession hive = QuerySession.start(state, Map.of(), ignored, console)) {
            hive.execute("SET hive.execution.engine=" + engine);
            hive.execute("USE " + database);
            for (int number : queries) {
                TpchQuery query = TpchQuery.load(home.resolve("tpch-queries"), number, scale);
                for (int run = 1; run <= runs; run++) {
                    long start = System.nanoTime();
                    List<String> rows = List.of();
                    String status = "ok";
                    try {
                        for (String statement : query.statements()) {
                            List<String> result = hive.execute(statement);
                            if (query.isResult(statement)) {
                                rows = result;
                            }
                        }
                    } catch (CommandProcessorException e) {
                        status = "failed";
                        failures++;
                        console.println("tpch-run: Q" + number + " failed: " + e.getMessage());
                    }
                    double seconds = (System.nanoTime() - start) / 1e9;
                    Files.write(out.resolve("q" + number + ".tsv"), rows, StandardCharsets.UTF_8);
                    timings.add(String.format(Locale.ROOT, "%d,%d,%s,%s,%s,%.3f,%d,%s", number, run, engine, format,
                            options.get("--scale"), seconds, rows.size(), status));
                    console.printf(Locale.ROOT, "tpch-run: Q%d run %d on %s: %.2f s, %d rows%n", number, run, engine,
                            seconds, rows.size());
                }
            }
        }
        Files.write(out.resolve("timings.csv"), timings, StandardCharsets.UTF_8);
        System.exit(failures == 0 ? 0 : 1);
    }

    /** "1-22", "3", "1,6,14", "1-5,9". */
    static List<Integer> parseQueries(String spec) {
        List<Integer> queries = new ArrayList<>();
        for (String part : spec.split(",")) {
            String[] range = part.trim().split("-");
            int from = Integer.parseInt(range[0]);
            int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
            if (from < 1 || to > 22 || from > to) {
                throw new IllegalArgumentException("Invalid value '" + spec + "' for --queries: expected numbers "
                        + "or ranges within 1-22, e.g. 1-22 or 1,6,14");
            }
            for (int q = from; q <= to; q++) {
                queries.add(q);
            }
        }
        return queries;
    }
}
