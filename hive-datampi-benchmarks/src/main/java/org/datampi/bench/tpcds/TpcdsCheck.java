package org.datampi.bench.tpcds;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.datampi.bench.harness.ResultRows;
import org.datampi.bench.harness.WorkloadRunner;

/**
 * bin/tpcds-check: checks the answers TPC-DS runs wrote (bin/tpcds-run's OUT, or each engine's directory of a
 * bin/tpcds-bench OUT) against DuckDB over the same generated files, part by part, by the rule of the answer tests
 * (row counts, text and integers exactly, other numbers within a relative 1e-6 or 0.01; order compared where the
 * query has an ORDER BY). Prints a line per directory and the first differences of each part that differs; exits 1
 * when a part differs or has no answer, 2 on bad arguments.
 */
public final class TpcdsCheck {
    private static final String USAGE = "tpcds-check --data DIR [--queries 1-99] RESULTS_DIR...";
    /** Differences shown per part. */
    private static final int SHOWN = 6;

    private final TpcdsOracle duckdb;
    private final Path queries;
    private final List<Integer> numbers;
    private final Map<Integer, List<List<String>>> expected = new HashMap<>();

    /**
     * What a directory's answers came to.
     *
     * @param parts the query parts checked
     * @param wrong the parts that differ from DuckDB's or have no answer
     * @param lines the report: a line for the directory, then what differs
     */
    public record Result(int parts, List<String> wrong, List<String> lines) {
        public Result {
            wrong = List.copyOf(wrong);
            lines = List.copyOf(lines);
        }
    }

    /** @param queries the checkout's tpcds-queries directory */
    public TpcdsCheck(TpcdsOracle duckdb, Path queries, List<Integer> numbers) {
        this.duckdb = requireNonNull(duckdb, "duckdb is null");
        this.queries = requireNonNull(queries, "queries is null");
        this.numbers = List.copyOf(numbers);
    }

    public static void main(String[] args) throws Exception {
        Path data = null;
        String queries = "1-99";
        List<Path> results = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--data" -> data = Path.of(value(args, ++i));
                case "--queries" -> queries = value(args, ++i);
                default -> results.add(Path.of(args[i]));
            }
        }
        if (data == null || results.isEmpty()) {
            throw usage("give --data and at least one results directory");
        }
        for (Path dir : results) {
            if (!Files.isDirectory(dir)) {
                throw usage("no results directory " + dir);
            }
        }
        Path home = WorkloadRunner.home();
        int wrong = 0;
        try (TpcdsOracle duckdb = TpcdsOracle.load(home, data)) {
            TpcdsCheck check = new TpcdsCheck(duckdb, home.resolve("tpcds-queries"),
                    TpcdsQuery.parseNumbers(queries));
            for (Path dir : results) {
                Result result = check.check(dir);
                result.lines().forEach(System.out::println);
                wrong += result.wrong().size();
            }
        }
        System.exit(wrong == 0 ? 0 : 1);
    }

    /** How the answers in DIR ({@code qN.tsv}, {@code q14a.tsv}, ...: tab-separated rows) compare with DuckDB's. */
    public Result check(Path dir) throws IOException, SQLException {
        int parts = 0;
        List<String> wrong = new ArrayList<>();
        List<String> details = new ArrayList<>();
        for (int number : numbers) {
            TpcdsQuery query = TpcdsQuery.load(queries, number);
            for (int i = 0; i < query.parts().size(); i++) {
                TpcdsQuery.Part part = query.parts().get(i);
                parts++;
                Path answer = dir.resolve(part.name() + ".tsv");
                if (!Files.exists(answer)) {
                    wrong.add(part.name());
                    details.add(part.name() + ": no answer (" + answer + ")");
                    continue;
                }
                boolean ordered = part.sql().toUpperCase(Locale.ROOT).contains("ORDER BY");
                List<String> differences = ResultRows.differences(expected(number).get(i), "DuckDB",
                        Files.readAllLines(answer, StandardCharsets.UTF_8), dir.getFileName().toString(), ordered);
                if (!differences.isEmpty()) {
                    wrong.add(part.name());
                    details.add(part.name() + " differs from DuckDB:\n" + String.join("\n",
                            differences.subList(0, Math.min(SHOWN, differences.size()))));
                }
            }
        }
        List<String> lines = new ArrayList<>();
        lines.add(dir + ": " + (parts - wrong.size()) + " of " + parts + " parts equal DuckDB's"
                + (wrong.isEmpty() ? "" : "; differ: " + String.join(", ", wrong)));
        lines.addAll(details);
        return new Result(parts, wrong, lines);
    }

    /** DuckDB's answers to each part of query NUMBER, asked once for every directory checked. */
    private List<List<String>> expected(int number) throws IOException, SQLException {
        List<List<String>> answers = expected.get(number);
        if (answers == null) {
            answers = duckdb.answers(number);
            expected.put(number, answers);
        }
        return answers;
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw usage(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    /** Says what is wrong and how to call, and ends the JVM with exit code 2 (the callers throw what it returns). */
    private static IllegalArgumentException usage(String problem) {
        System.err.println("tpcds-check: " + problem + "\nusage: " + USAGE);
        System.exit(2);
        return new IllegalArgumentException(problem);
    }
}
