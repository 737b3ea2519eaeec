package org.datampi.bench.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class RecordedOutputTest {
    /** As Hive's qtest writes a .q.out: a statement on two lines, hooks with a masked one, rows with a masked one. */
    private static final RecordedOutput RECORDED = RecordedOutput.parse("llap/t.q.out", List.of(
            "PREHOOK: query: CREATE TABLE t (k INT)",
            "PREHOOK: type: CREATETABLE",
            "PREHOOK: Output: default@t",
            "POSTHOOK: query: CREATE TABLE t (k INT)",
            "POSTHOOK: type: CREATETABLE",
            "POSTHOOK: Output: default@t",
            "PREHOOK: query: SELECT k, INPUT__FILE__NAME",
            "FROM t",
            "PREHOOK: type: QUERY",
            "#### A masked pattern was here ####",
            "POSTHOOK: query: SELECT k, INPUT__FILE__NAME",
            "FROM t",
            "POSTHOOK: type: QUERY",
            "POSTHOOK: Input: default@t",
            "1\tfile:/a",
            RecordedOutput.MASKED,
            "PREHOOK: query: SELECT k FROM t",
            "PREHOOK: type: QUERY",
            "POSTHOOK: query: SELECT k FROM t",
            "POSTHOOK: type: QUERY",
            "1",
            "2",
            "PREHOOK: query: SELECT k FROM t",
            "PREHOOK: type: QUERY",
            "POSTHOOK: query: SELECT k FROM t",
            "POSTHOOK: type: QUERY",
            "3"));

    private static QfileOutcome.Statement statement(String text, String... rows) {
        return new QfileOutcome.Statement(text, true, List.of(rows), Optional.empty());
    }

    @Test
    void eachQueryHasItsTextAndTheRowsAfterItsHooks() {
        assertEquals(4, RECORDED.queries().size());
        RecordedOutput.Query select = RECORDED.queries().get(1);
        assertEquals("SELECT k, INPUT__FILE__NAME\nFROM t", select.text());
        assertEquals(List.of("1\tfile:/a"), select.rows());
        assertEquals(1, select.masked());
        assertEquals(List.of(), RECORDED.queries().get(0).rows());
    }

    @Test
    void aMaskedRowStandsForAnyRowAndRowsAreComparedInAnyOrder() {
        RecordedOutput.Query select = RECORDED.queries().get(1);
        assertTrue(select.matches(List.of("2\tfile:/b", "1\tfile:/a"), false));
        assertTrue(select.matches(List.of("1\tfile:/a"), false), "the masked line may have been a hook's");
        assertFalse(select.matches(List.of("1\tfile:/a", "2\tfile:/b", "3\tfile:/c"), false));
        assertFalse(select.matches(List.of("2\tfile:/b", "3\tfile:/c"), false));
        assertTrue(RECORDED.queries().get(2).matches(List.of("2", "1"), false));
        assertFalse(RECORDED.queries().get(2).matches(List.of("1", "1"), false));
    }

    @Test
    void rowsMayGoOnWithTheOutputOfTheStatementsWithoutHooksAfterIt() {
        RecordedOutput recorded = RecordedOutput.parse("llap/s.q.out", List.of(
                "PREHOOK: query: SELECT k FROM t",
                "POSTHOOK: type: QUERY",
                "1",
                "test.comment=\"cached\""));
        QfileOutcome.Statement comment = new QfileOutcome.Statement("set test.comment", false, List.of(),
                Optional.empty());
        assertEquals(Optional.of(true), recorded.matches(new QfileOutcome(List.of(statement("SELECT k FROM t", "1"),
                comment), Optional.empty(), 1), 0));
        assertEquals(Optional.of(false), recorded.matches(new QfileOutcome(List.of(statement("SELECT k FROM t", "1")),
                Optional.empty(), 1), 0), "nothing came after it");
        assertEquals(Optional.of(false), recorded.matches(new QfileOutcome(List.of(statement("SELECT k FROM t", "2"),
                comment), Optional.empty(), 1), 0));
    }

    @Test
    void aStatementIsFoundByItsTextAndItsRunInTheFile() {
        QfileOutcome outcome = new QfileOutcome(List.of(
                new QfileOutcome.Statement("SET x=1", false, List.of(), Optional.empty()),
                statement("-- the first run\nSELECT k\n  FROM t;", "2", "1"),
                statement("SELECT k FROM t", "4"),
                statement("SELECT k, INPUT__FILE__NAME FROM t", QfileOutcome.countOnly(2).get(0)),
                statement("SELECT 1", "1")), Optional.empty(), 1);
        assertEquals(Optional.empty(), RECORDED.matches(outcome, 0), "not compared");
        assertEquals(Optional.of(true), RECORDED.matches(outcome, 1));
        assertEquals(Optional.of(false), RECORDED.matches(outcome, 2), "its second run recorded 3");
        assertEquals(Optional.of(true), RECORDED.matches(outcome, 3), "only how many: one row and a masked one");
        assertEquals(Optional.empty(), RECORDED.matches(outcome, 4), "not recorded");
        assertEquals(new RecordedOutput.Agreement(2, 3), RECORDED.agreement(outcome));
        assertEquals("2/3", RECORDED.agreement(outcome).toString());
    }
}
