package org.datampi.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What BenchmarkDriver's --resume reads back of an engine's earlier run: only a run its runner finished with 0. */
class EngineResultsTest {
    private static final String FINISHED = "engine.csv";

    @TempDir
    Path out;

    @Test
    void aFinishedRunIsReadBackWithItsTimingsAndPeakMemory() throws Exception {
        Timing q1 = new Timing("q1", "datampi", 1, 12.5, 4, true, 2.25);
        Files.write(out.resolve("timings.csv"), List.of(Timing.CSV_HEADER, q1.toCsv()));
        EngineResults finished = new EngineResults("datampi", List.of(q1), 5408, 0, out);
        Files.write(out.resolve(FINISHED), List.of(EngineResults.CSV_HEADER, finished.toCsv()));

        EngineResults read = EngineResults.readFinished("datampi", out, FINISHED).orElseThrow();

        assertEquals(finished, read);
    }

    @Test
    void aRunThatFailedIsMissingOrIsAnotherEnginesIsNotResumed() throws Exception {
        assertEquals(Optional.empty(), EngineResults.readFinished("datampi", out, FINISHED), "no file");

        Files.write(out.resolve(FINISHED), List.of(EngineResults.CSV_HEADER, "datampi,5408,1"));
        assertEquals(Optional.empty(), EngineResults.readFinished("datampi", out, FINISHED), "exit code 1");

        Files.write(out.resolve(FINISHED), List.of(EngineResults.CSV_HEADER, "tez-yarn,10265,0"));
        assertEquals(Optional.empty(), EngineResults.readFinished("datampi", out, FINISHED), "tez-yarn's");

        Files.write(out.resolve(FINISHED), List.of(EngineResults.CSV_HEADER));
        assertTrue(EngineResults.readFinished("datampi", out, FINISHED).isEmpty(), "a header alone");
    }
}
