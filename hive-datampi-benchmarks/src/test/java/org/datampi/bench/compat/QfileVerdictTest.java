package org.datampi.bench.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QfileVerdictTest {
    private static QfileOutcome.Statement ok(String text, String... rows) {
        return new QfileOutcome.Statement(text, true, List.of(rows), Optional.empty());
    }

    private static QfileOutcome outcome(QfileOutcome.Statement... statements) {
        return new QfileOutcome(List.of(statements), Optional.empty(), 1);
    }

    @Test
    void theSameRowsAreTheSameAndWhatIsNotComparedIsLeftOut() {
        QfileOutcome mr = outcome(ok("SELECT 1", "1"), new QfileOutcome.Statement("EXPLAIN SELECT 1", false,
                List.of(), Optional.empty()));
        QfileOutcome datampi = outcome(ok("SELECT 1", "1"), new QfileOutcome.Statement("EXPLAIN SELECT 1", false,
                List.of("a plan of its own"), Optional.empty()));
        assertEquals(new QfileVerdict(QfileVerdict.Verdict.SAME, ""), QfileVerdict.of(Optional.of(mr),
                Optional.of(datampi)));
    }

    @Test
    void otherRowsDifferNamingTheStatementAndTheRow() {
        QfileVerdict verdict = QfileVerdict.of(Optional.of(outcome(ok("SELECT k FROM t", "1", "2"))),
                Optional.of(outcome(ok("SELECT k FROM t", "1", "3"))));
        assertEquals(QfileVerdict.Verdict.DIFFERS, verdict.verdict());
        assertEquals("statement 1, 2 rows against mr's 2; row 2: '3' against '2' (in: SELECT k FROM t)",
                verdict.detail());
        assertEquals(java.util.OptionalInt.of(0), verdict.differingStatement());
    }

    @Test
    void failuresAreClassedByEngine() {
        QfileOutcome failed = outcome(new QfileOutcome.Statement("SELECT x", true, List.of(),
                Optional.of("FAILED: SemanticException x")));
        QfileOutcome fine = outcome(ok("SELECT x", "1"));
        assertEquals(QfileVerdict.Verdict.FAILS_ON_DATAMPI, QfileVerdict.of(Optional.of(fine), Optional.of(failed))
                .verdict());
        assertEquals(QfileVerdict.Verdict.FAILS_ON_MR, QfileVerdict.of(Optional.of(failed), Optional.of(fine))
                .verdict());
        QfileVerdict both = QfileVerdict.of(Optional.of(failed), Optional.of(failed));
        assertEquals(QfileVerdict.Verdict.FAILS_ON_BOTH, both.verdict());
        assertEquals("FAILED: SemanticException x (in: SELECT x)", both.detail());
        assertEquals(QfileVerdict.Verdict.TIMEOUT_ON_DATAMPI, QfileVerdict.of(Optional.of(fine), Optional.empty())
                .verdict());
        assertEquals(QfileVerdict.Verdict.TIMEOUT_ON_MR, QfileVerdict.of(Optional.empty(), Optional.of(fine))
                .verdict());
    }

    /** The engine that fails first fails the file; rows that differ before a failure make it differ. */
    @Test
    void theEngineThatFailsFirstIsTheOneThatFails() {
        QfileOutcome.Statement failed = new QfileOutcome.Statement("SELECT y", true, List.of(),
                Optional.of("FAILED: y"));
        QfileOutcome early = outcome(failed);
        QfileOutcome late = outcome(ok("SELECT 1", "1"), failed);
        assertEquals(QfileVerdict.Verdict.FAILS_ON_DATAMPI, QfileVerdict.of(Optional.of(late), Optional.of(early))
                .verdict());
        assertEquals(QfileVerdict.Verdict.FAILS_ON_MR, QfileVerdict.of(Optional.of(early), Optional.of(late))
                .verdict());
        QfileOutcome otherRowsThenFailed = outcome(ok("SELECT 1", "2"), failed);
        assertEquals(QfileVerdict.Verdict.DIFFERS, QfileVerdict.of(Optional.of(late),
                Optional.of(otherRowsThenFailed)).verdict());
    }

    @Test
    void anOutcomeReadsBackAsWritten(@TempDir Path directory) throws Exception {
        QfileOutcome written = new QfileOutcome(List.of(ok("SELECT 'a\tb'\nFROM t", "a\tb", "back\\slash"),
                new QfileOutcome.Statement("SET x", false, List.of(), Optional.of("FAILED: no"))), Optional.empty(), 3);
        Path file = directory.resolve("mr.outcome");
        written.write(file);
        assertEquals(written, QfileOutcome.read(file));
        Files.writeString(file, "statement\ttrue\tSELECT 1\n");
        assertTrue(assertThrowsIo(file).contains("was not written to its end"));
    }

    private static String assertThrowsIo(Path file) {
        try {
            QfileOutcome.read(file);
        } catch (java.io.IOException e) {
            return e.getMessage();
        }
        throw new AssertionError("read a half-written outcome");
    }
}
