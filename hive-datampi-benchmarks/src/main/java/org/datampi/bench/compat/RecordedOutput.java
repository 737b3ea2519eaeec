package org.datampi.bench.compat;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Hive's recorded output of a qfile (its golden {@code .q.out}, in the source release's
 * {@code ql/src/test/results/clientpositive}): the rows each query gave when Hive's developers ran the file with
 * Hive's own driver, on the engine of its driver (llap/ and tez/: Hive on Tez, the top directory: Hive on MR). A
 * third opinion where datampi and Hive on MR differ, and the only one where Hive on MR fails: it is not an engine run
 * beside them, and its masked lines (paths, times) stand for any row.
 *
 * <p>A .q.out holds, for each statement that passed Hive's hooks, {@code PREHOOK: query: TEXT} (TEXT on as many
 * lines as the statement has), the hooks' lines ({@code PREHOOK:}/{@code POSTHOOK:}), then the statement's rows up to
 * the next {@code PREHOOK: query:}. Statements without hooks (SET, dfs) are not in it.
 *
 * @param source where it was read (llap/NAME.q.out), for the report
 * @param queries its statements in order
 */
public record RecordedOutput(String source, List<Query> queries) {
    /** The line Hive's qtest writes in place of one that held a path, a time or another value of its run. */
    static final String MASKED = "#### A masked pattern was here ####";
    /** The directories of the recorded outputs, in the order looked in: Hive's default driver's first. */
    private static final List<String> DRIVERS = List.of("llap/", "tez/", "");
    private static final String QUERY = "PREHOOK: query: ";
    private static final Pattern HOOK = Pattern.compile("^(PRE|POST)HOOK: .*");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    /**
     * @param text the statement, as Hive's driver ran it
     * @param rows its rows, masked lines left out
     * @param masked how many of its rows were masked
     */
    public record Query(String text, List<String> rows, int masked) {
        public Query {
            requireNonNull(text, "text is null");
            rows = List.copyOf(rows);
        }

        /**
         * Whether ACTUAL (an engine's rows, in any order) are these rows: the same rows, a masked row standing for
         * any. Rows are compared as multisets, since the order is compared between the engines themselves. With
         * MORE_OUTPUT (statements without hooks came next, whose output, a SET's value, was written after these
         * rows), these rows may go on past ACTUAL's.
         */
        public boolean matches(List<String> actual, boolean moreOutput) {
            Map<String, Integer> recorded = new HashMap<>();
            rows.forEach(row -> recorded.merge(row, 1, Integer::sum));
            int unmatched = 0;
            for (String row : actual) {
                if (recorded.getOrDefault(row, 0) > 0) {
                    recorded.merge(row, -1, Integer::sum);
                } else {
                    unmatched++;
                }
            }
            int recordedLeft = rows.size() - (actual.size() - unmatched);
            return unmatched <= masked && (moreOutput || recordedLeft == 0);
        }

        /** How many rows it had, masked or not. */
        public int size() {
            return rows.size() + masked;
        }
    }

    public RecordedOutput {
        requireNonNull(source, "source is null");
        queries = List.copyOf(queries);
    }

    /** QFILE's recorded output in RELEASE, from the first driver's directory that has one; empty if none has. */
    public static Optional<RecordedOutput> of(HiveSourceRelease release, String qfile) throws IOException {
        for (String driver : DRIVERS) {
            Path file = release.recordedOutputs().resolve(driver + qfile + ".out");
            if (Files.isRegularFile(file)) {
                return Optional.of(parse(driver + qfile + ".out", Files.readAllLines(file, StandardCharsets.UTF_8)));
            }
        }
        return Optional.empty();
    }

    static RecordedOutput parse(String source, List<String> lines) {
        List<Query> queries = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            if (!lines.get(i).startsWith(QUERY)) {
                i++;
                continue;
            }
            StringBuilder text = new StringBuilder(lines.get(i).substring(QUERY.length()));
            i++;
            while (i < lines.size() && !HOOK.matcher(lines.get(i)).matches()) {
                text.append('\n').append(lines.get(i++));
            }
            // The hooks' lines, some masked, up to the last PREHOOK/POSTHOOK line; its rows after, to the next query.
            int end = i;
            while (end < lines.size() && !lines.get(end).startsWith(QUERY)) {
                end++;
            }
            int firstRow = i;
            for (int j = i; j < end; j++) {
                if (HOOK.matcher(lines.get(j)).matches()) {
                    firstRow = j + 1;
                }
            }
            List<String> rows = new ArrayList<>();
            int masked = 0;
            for (String row : lines.subList(firstRow, end)) {
                if (row.equals(MASKED)) {
                    masked++;
                } else {
                    rows.add(row);
                }
            }
            i = end;
            queries.add(new Query(text.toString(), rows, masked));
        }
        return new RecordedOutput(source, queries);
    }

    /**
     * The recorded query of STATEMENT's OCCURRENCE-th run in the file (from 0: a file may run one statement more
     * than once), by its text with comments and runs of whitespace set aside; empty if it has none (a statement
     * without hooks, or one whose text Hive's driver changed, by a variable's value).
     */
    public Optional<Query> find(String statement, int occurrence) {
        String wanted = normalized(statement);
        return queries.stream().filter(q -> normalized(q.text()).equals(wanted)).skip(occurrence).findFirst();
    }

    /**
     * Whether statement INDEX of OUTCOME gave its recorded rows (only how many, where the engine's rows are compared
     * so: {@link QfileOutcome#countOnly}); empty when its rows are not compared or it has no recorded query.
     */
    public Optional<Boolean> matches(QfileOutcome outcome, int index) {
        QfileOutcome.Statement statement = outcome.statements().get(index);
        if (!statement.compared() || statement.error().isPresent()) {
            return Optional.empty();
        }
        String text = normalized(statement.text());
        int occurrence = (int) outcome.statements().subList(0, index).stream()
                .filter(s -> normalized(s.text()).equals(text)).count();
        boolean moreOutput = index + 1 < outcome.statements().size()
                && find(outcome.statements().get(index + 1).text(), 0).isEmpty();
        return find(statement.text(), occurrence).map(query -> {
            java.util.OptionalInt count = QfileOutcome.countOf(statement.rows());
            return count.isPresent() ? count.getAsInt() == query.size() || moreOutput && count.getAsInt() < query.size()
                    : query.matches(statement.rows(), moreOutput);
        });
    }

    /** Of OUTCOME's statements whose rows are compared and recorded here, how many gave the recorded rows. */
    public Agreement agreement(QfileOutcome outcome) {
        int checked = 0;
        int agreed = 0;
        for (int i = 0; i < outcome.statements().size(); i++) {
            Optional<Boolean> matches = matches(outcome, i);
            if (matches.isPresent()) {
                checked++;
                agreed += matches.get() ? 1 : 0;
            }
        }
        return new Agreement(agreed, checked);
    }

    /** @param agreed statements that gave the recorded rows, @param checked of those that have recorded rows */
    public record Agreement(int agreed, int checked) {
        @Override
        public String toString() {
            return agreed + "/" + checked;
        }
    }

    static String normalized(String statement) {
        String withoutComments = statement.lines().filter(line -> !line.strip().startsWith("--"))
                .reduce((a, b) -> a + "\n" + b).orElse("");
        String text = WHITESPACE.matcher(withoutComments).replaceAll(" ").strip();
        return text.endsWith(";") ? text.substring(0, text.length() - 1).strip() : text;
    }
}
