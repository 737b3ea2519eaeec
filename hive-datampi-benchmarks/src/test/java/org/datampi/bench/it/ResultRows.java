package org.datampi.bench.it;

import java.util.function.BiPredicate;

/** Comparing result rows as Hive prints them: tab-separated fields, each pair compared by a rule for values. */
final class ResultRows {
    private ResultRows() {
    }

    static boolean sameRow(String expected, String actual, BiPredicate<String, String> sameValue) {
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
}
