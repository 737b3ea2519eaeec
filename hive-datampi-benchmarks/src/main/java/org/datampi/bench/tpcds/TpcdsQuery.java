package org.datampi.bench.tpcds;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.datampi.bench.harness.Workload;
import org.datampi.hive.cli.HiveQlScript;

/**
 * One of the 99 queries of tpcds-queries/ (HiveQL) or tpcds-queries/duckdb/ (the same query as DuckDB runs it, the
 * answer tests' oracle): one statement per part. Queries 14, 23, 24 and 39 have two parts, {@code q14a} and
 * {@code q14b}; each part is timed and checked on its own.
 *
 * @param number 1 to 99
 * @param parts in order, each one SELECT
 */
public record TpcdsQuery(int number, List<Part> parts) {
    public static final int COUNT = 99;
    private static final Pattern WORD = Pattern.compile("[a-z_][a-z0-9_]*");

    /** @param name {@code q7}, {@code q14a}: how it is reported and named on disk */
    public record Part(String name, String sql) {
        public Part {
            requireNonNull(name, "name is null");
            requireNonNull(sql, "sql is null");
        }

        /** As the benchmark runners time it: its rows are the result. */
        public Workload workload() {
            return new Workload(name, List.of(sql), Optional.empty());
        }
    }

    public TpcdsQuery {
        if (number < 1 || number > COUNT) {
            throw new IllegalArgumentException("TPC-DS has queries 1 to " + COUNT + ", not " + number);
        }
        parts = List.copyOf(parts);
        if (parts.isEmpty() || parts.size() > 2) {
            throw new IllegalArgumentException("TPC-DS query " + number + " has " + parts.size()
                    + " statements; expected one, or two parts");
        }
    }

    /**
     * The TPC-DS tables the query reads: the words of its parts that name one (a string literal that does, such as
     * 'store', adds a table it does not read, which costs a loader a table and no answer).
     */
    public Set<String> tables() {
        Set<String> tables = new TreeSet<>();
        for (Part part : parts) {
            Matcher words = WORD.matcher(part.sql().toLowerCase(Locale.ROOT));
            while (words.find()) {
                if (TpcdsGenerator.tableNames().contains(words.group())) {
                    tables.add(words.group());
                }
            }
        }
        return tables;
    }

    /** Reads {@code DIR/qNN.sql}. */
    public static TpcdsQuery load(Path queryDir, int number) throws IOException {
        Path file = queryDir.resolve(String.format(Locale.ROOT, "q%02d.sql", number));
        List<String> statements = HiveQlScript.parse(Files.readString(file)).all();
        List<Part> parts = new ArrayList<>();
        for (int i = 0; i < statements.size(); i++) {
            String suffix = statements.size() == 1 ? "" : String.valueOf((char) ('a' + i));
            parts.add(new Part("q" + number + suffix, statements.get(i)));
        }
        try {
            return new TpcdsQuery(number, parts);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /** "1-99", "3", "14,23,24,39", "1-5,72": the query numbers, checked. */
    public static List<Integer> parseNumbers(String spec) {
        List<Integer> numbers = new ArrayList<>();
        for (String piece : spec.split(",")) {
            String[] range = piece.trim().split("-");
            try {
                int from = Integer.parseInt(range[0]);
                int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
                if (range.length > 2 || from < 1 || to > COUNT || from > to) {
                    throw new NumberFormatException();
                }
                for (int number = from; number <= to; number++) {
                    numbers.add(number);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("Invalid value '" + spec + "' for --queries: expected numbers "
                        + "or ranges within 1-" + COUNT + ", e.g. 1-99 or 3,14,72");
            }
        }
        return numbers;
    }
}
