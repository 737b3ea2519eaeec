package org.datampi.bench.harness;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * Comparing result rows as Hive prints them: tab-separated fields, each pair compared by a rule for values. The
 * rule the TPC-H and benchmark answer checks use, {@link #sameNumber}, takes text and whole numbers exactly and
 * other numbers (sums, averages, ratios, whose last digits depend on the order of additions) within a relative
 * 1e-6 or an absolute 0.01.
 */
public final class ResultRows {
    private static final BigDecimal ABSOLUTE = new BigDecimal("0.01");
    private static final BigDecimal RELATIVE = new BigDecimal("1e-6");

    private ResultRows() {
    }

    public static boolean sameRow(String expected, String actual, BiPredicate<String, String> sameValue) {
        String[] e = expected.split("\t", -1);
        String[] a = actual.split("\t", -1);
        if (e.length != a.length) {
            return false;
        }
        for (int i = 0; i < e.length; i++) {
            if (!e[i].equals(a[i]) && !sameValue.test(e[i], a[i])) {
                return false;
            }
        }
        return true;
    }

    /** Equal text, equal whole numbers, or other numbers within a relative 1e-6 or 0.01. */
    public static boolean sameNumber(String expected, String actual) {
        if (expected.equals(actual)) {
            return true;
        }
        BigDecimal e = number(expected);
        BigDecimal a = number(actual);
        if (e == null || a == null) {
            return false;
        }
        if (e.stripTrailingZeros().scale() <= 0 && a.stripTrailingZeros().scale() <= 0) {
            return e.compareTo(a) == 0;
        }
        BigDecimal difference = e.subtract(a).abs();
        return difference.compareTo(ABSOLUTE) <= 0 || difference.compareTo(e.abs().multiply(RELATIVE)) <= 0;
    }

    /**
     * The differences between two results in row order, each naming both sides; empty when they agree. Rows that
     * differ only in order (ties of an ORDER BY, a query without one) agree when {@code orderMatters} is false.
     */
    public static List<String> differences(List<String> expected, String expectedName, List<String> actual,
            String actualName, boolean orderMatters) {
        List<String> differences = compareInOrder(expected, expectedName, actual, actualName);
        if (!differences.isEmpty() && !orderMatters
                && compareInOrder(expected.stream().sorted().toList(), expectedName,
                        actual.stream().sorted().toList(), actualName).isEmpty()) {
            return List.of();
        }
        return differences;
    }

    private static List<String> compareInOrder(List<String> expected, String expectedName, List<String> actual,
            String actualName) {
        List<String> differences = new ArrayList<>();
        if (expected.size() != actual.size()) {
            differences.add("rows: " + expectedName + " " + expected.size() + ", " + actualName + " " + actual.size());
        }
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            if (!sameRow(expected.get(i), actual.get(i), ResultRows::sameNumber)) {
                differences.add("row " + (i + 1) + ":\n  " + expectedName + ": " + expected.get(i) + "\n  "
                        + actualName + ": " + actual.get(i));
            }
        }
        return differences;
    }

    private static BigDecimal number(String text) {
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
