package org.datampi.bench.tpch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

class TpchQueryTest {
    private static final Path QUERIES = Path.of(System.getProperty("datampi.home", "../"), "tpch-queries");

    @Test
    void q11sFractionIsFilledInForEveryScale() throws Exception {
        assertTrue(String.join("\n", TpchQuery.load(QUERIES, 11, 1).statements()).contains("0.0001"));
        assertTrue(String.join("\n", TpchQuery.load(QUERIES, 11, 0.01).statements()).contains("0.01"));
        // 0.0001 / 3 has no finite decimal expansion: 16 significant digits.
        String three = String.join("\n", TpchQuery.load(QUERIES, 11, 3).statements());
        assertTrue(three.contains("0.00003333333333333333"), three);
        assertTrue(!three.contains("${hivevar:FRACTION}"), three);
    }
}
