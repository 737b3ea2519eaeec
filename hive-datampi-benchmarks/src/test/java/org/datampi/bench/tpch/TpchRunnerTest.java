package org.datampi.bench.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Which database and queries bin/tpch-run's options name. */
class TpchRunnerTest {
    @Test
    void theDatabaseIsTheOneTpchLoadMadeForTheScaleFormatAndLayout() {
        assertEquals("tpch_sf0_01_orc", TpchRunner.database("0.01", "orc", "flat"));
        assertEquals("tpch_sf1_orc_bucketed", TpchRunner.database("1", "orc", "bucketed"));
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                () -> TpchRunner.database("1", "orc", "partitioned"));
        assertTrue(wrong.getMessage().contains("--layout") && wrong.getMessage().contains("partitioned"),
                wrong.getMessage());
    }

    @Test
    void queriesAreNumbersAndRangesWithin1To22() {
        assertEquals(List.of(1, 2, 3, 6, 14), TpchRunner.parseQueries("1-3,6,14"));
        assertThrows(IllegalArgumentException.class, () -> TpchRunner.parseQueries("20-23"));
    }
}
