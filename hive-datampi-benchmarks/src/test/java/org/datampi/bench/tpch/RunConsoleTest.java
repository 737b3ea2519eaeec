package org.datampi.bench.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class RunConsoleTest {
    @Test
    void eachQuerysLastTimedRunIsMarkedWithTheBytesItsVerticesSent() {
        AtomicLong clock = new AtomicLong(100);
        RunConsole console = new RunConsole(clock::getAndIncrement);
        // As bin/tpch-run prints them: WorkloadRunner's marks, DagSummary's rows (here and on a cluster, with LOCAL).
        List.of("bench: begin q5 warm-up 1",
                "Map 3             4         6,211        11,410     59,994,062       1,460,257        0 B         0 B"
                        + "   49.1 MB      -",
                "bench: q5 warm-up 1 on datampi: 3.10 s (Hive's compile 0.20 s), 5 rows",
                "bench: begin q5 run 1",
                "Map 3             4         6,211        11,410     59,994,062       1,460,257        0 B         0 B"
                        + "    2.0 MB      -",
                "Reducer 4         6         2,000         3,000        100,000              12     1.5 KB      0 B"
                        + "      512 B    3/6",
                "bench: q5 run 1 on datampi: 3.00 s (Hive's compile 0.20 s), 5 rows",
                "bench: begin q6 run 1",
                "Map 1             2         1,000         1,000          1,000               1     1.0 MB      0 B"
                        + "      1.0 KB   2/2").forEach(console);
        assertEquals(Map.of("q5", new RunConsole.Window(100, 101)), console.windows(),
                "the timed run's window; q6 has not ended");
        assertEquals(Map.of("q5", 2 * 1024 * 1024 + 512L), console.shuffled(), "the timed run's vertices only");
    }

    @Test
    void sizesAreReadAsTheSummaryWritesThem() {
        assertEquals(1536, RunConsole.bytes("1.5", "K"));
        assertEquals(812, RunConsole.bytes("812", ""));
        assertEquals(3 * 1024L * 1024 * 1024, RunConsole.bytes("3.0", "G"));
    }
}
