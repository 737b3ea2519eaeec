package org.datampi.bench.compat;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How a qfile's run on datampi compares with its run on Hive on MR, the independent engine: the same rows statement
 * by statement, different rows, or a failure on either or both, with what tells the difference.
 *
 * @param verdict the class
 * @param detail the first failure or the first statement whose rows differ; empty when the same
 * @param differingStatement the index of the first statement whose rows differ, when the rows of one do
 */
public record QfileVerdict(Verdict verdict, String detail, OptionalInt differingStatement) {
    /** The classes, with the names the report and its TSV use. */
    public enum Verdict {
        SAME("same"), DIFFERS("differs"), FAILS_ON_DATAMPI("fails-on-datampi"), FAILS_ON_MR("fails-on-mr"),
        FAILS_ON_BOTH("fails-on-both"), TIMEOUT_ON_DATAMPI("timeout-on-datampi"), TIMEOUT_ON_MR("timeout-on-mr");

        private final String label;

        Verdict(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        public static Verdict ofLabel(String label) {
            for (Verdict verdict : values()) {
                if (verdict.label.equals(label)) {
                    return verdict;
                }
            }
            throw new IllegalArgumentException("not a verdict: " + label);
        }
    }

    public QfileVerdict {
        requireNonNull(verdict, "verdict is null");
        requireNonNull(detail, "detail is null");
        requireNonNull(differingStatement, "differingStatement is null");
    }

    public QfileVerdict(Verdict verdict, String detail) {
        this(verdict, detail, OptionalInt.empty());
    }

    /**
     * DATAMPI's outcome against MR's; an empty outcome is a run that did not end within its time. Statements are held
     * against each other up to the first failure on either engine: the engine that failed first is the one that
     * fails (rows that differ before it make the file differ), both when they fail at the same statement.
     */
    public static QfileVerdict of(Optional<QfileOutcome> mr, Optional<QfileOutcome> datampi) {
        if (mr.isEmpty()) {
            return new QfileVerdict(Verdict.TIMEOUT_ON_MR, datampi.isEmpty() ? "and on datampi" : "");
        }
        if (datampi.isEmpty()) {
            return new QfileVerdict(Verdict.TIMEOUT_ON_DATAMPI, "");
        }
        int mrFailed = failedAt(mr.get());
        int datampiFailed = failedAt(datampi.get());
        List<QfileOutcome.Statement> expected = mr.get().statements();
        List<QfileOutcome.Statement> actual = datampi.get().statements();
        int common = Math.min(Math.min(mrFailed, datampiFailed), Math.min(expected.size(), actual.size()));
        for (int i = 0; i < common; i++) {
            QfileOutcome.Statement statement = expected.get(i);
            if (statement.compared() && !statement.rows().equals(actual.get(i).rows())) {
                return new QfileVerdict(Verdict.DIFFERS, "statement " + (i + 1) + ", " + actual.get(i).rows().size()
                        + " rows against mr's " + statement.rows().size() + firstDifference(statement.rows(),
                        actual.get(i).rows()) + " (in: " + QfileOutcome.head(statement.text()) + ")",
                        OptionalInt.of(i));
            }
        }
        if (mrFailed == Integer.MAX_VALUE && datampiFailed == Integer.MAX_VALUE) {
            return expected.size() == actual.size() ? new QfileVerdict(Verdict.SAME, "")
                    : new QfileVerdict(Verdict.DIFFERS, "ran " + actual.size() + " statements, mr " + expected.size());
        }
        String datampiFailure = datampi.get().failure().orElse("");
        if (mrFailed == datampiFailed) {
            return new QfileVerdict(Verdict.FAILS_ON_BOTH, datampiFailure);
        }
        return datampiFailed < mrFailed ? new QfileVerdict(Verdict.FAILS_ON_DATAMPI, datampiFailure)
                : new QfileVerdict(Verdict.FAILS_ON_MR, mr.get().failure().orElse(""));
    }

    /** The index of OUTCOME's first failure (-1: its datasets'), or Integer.MAX_VALUE when nothing failed. */
    private static int failedAt(QfileOutcome outcome) {
        if (outcome.datasetError().isPresent()) {
            return -1;
        }
        for (int i = 0; i < outcome.statements().size(); i++) {
            if (outcome.statements().get(i).error().isPresent()) {
                return i;
            }
        }
        return Integer.MAX_VALUE;
    }

    private static String firstDifference(List<String> expected, List<String> actual) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                return "; row " + (i + 1) + ": '" + actual.get(i) + "' against '" + expected.get(i) + "'";
            }
        }
        return "";
    }
}
