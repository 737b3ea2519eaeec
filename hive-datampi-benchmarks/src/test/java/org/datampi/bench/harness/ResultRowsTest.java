package org.datampi.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class ResultRowsTest {
    @Test
    void textAndWholeNumbersMustMatchExactly() {
        assertTrue(ResultRows.sameNumber("BRASS", "BRASS"));
        assertFalse(ResultRows.sameNumber("BRASS", "BRAS"));
        assertTrue(ResultRows.sameNumber("42", "42.000"));
        assertFalse(ResultRows.sameNumber("42", "43"));
    }

    @Test
    void otherNumbersMatchWithinARelativeOrAbsoluteTolerance() {
        assertTrue(ResultRows.sameNumber("1234567.891", "1234567.892"), "within 1e-6 relative");
        assertTrue(ResultRows.sameNumber("0.05", "0.0549"), "within 0.01");
        assertFalse(ResultRows.sameNumber("0.05", "0.07"));
        assertFalse(ResultRows.sameNumber("1234567.5", "1234580.5"));
    }

    @Test
    void differencesNameBothSidesAndEveryDifferingRow() {
        List<String> differences = ResultRows.differences(List.of("a\t1", "b\t2"), "DuckDB", List.of("a\t1", "b\t3"),
                "datampi", true);
        assertEquals(List.of("row 2:\n  DuckDB: b\t2\n  datampi: b\t3"), differences);
        assertEquals("rows: DuckDB 2, datampi 1",
                ResultRows.differences(List.of("a\t1", "b\t2"), "DuckDB", List.of("a\t1"), "datampi", true).get(0));
    }

    @Test
    void rowOrderCountsOnlyWhenAsked() {
        List<String> expected = List.of("a\t1", "b\t2");
        List<String> swapped = List.of("b\t2", "a\t1");
        assertTrue(ResultRows.differences(expected, "x", swapped, "y", false).isEmpty());
        assertEquals(2, ResultRows.differences(expected, "x", swapped, "y", true).size());
    }
}
