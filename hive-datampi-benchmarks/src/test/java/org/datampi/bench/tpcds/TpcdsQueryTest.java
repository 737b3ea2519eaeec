package org.datampi.bench.tpcds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.junit.jupiter.api.Test;

class TpcdsQueryTest {
    private static final Path QUERIES = Path.of(System.getProperty("datampi.home", "../"), "tpcds-queries");
    private static final Set<Integer> TWO_PARTS = Set.of(14, 23, 24, 39);

    @Test
    void everyQueryHasItsPartsInHiveQlAndForTheOracle() throws Exception {
        int parts = 0;
        for (int number = 1; number <= TpcdsQuery.COUNT; number++) {
            TpcdsQuery hive = TpcdsQuery.load(QUERIES, number);
            TpcdsQuery duckdb = TpcdsQuery.load(QUERIES.resolve("duckdb"), number);
            int expected = TWO_PARTS.contains(number) ? 2 : 1;
            assertEquals(expected, hive.parts().size(), "q" + number);
            assertEquals(expected, duckdb.parts().size(), "q" + number + " for DuckDB");
            for (TpcdsQuery.Part part : hive.parts()) {
                String sql = part.sql().toUpperCase(Locale.ROOT);
                assertTrue(sql.startsWith("SELECT") || sql.startsWith("WITH"), part.name());
                // Hive 4.1 sorts NULLs first for DESC: every DESC key says where its NULLs go.
                assertFalse(sql.matches("(?s).*\\bDESC\\b(?!\\s+NULLS).*"), part.name() + " has a bare DESC");
                assertFalse(sql.contains("\""), part.name() + " quotes with \" (a string in Hive)");
            }
            parts += hive.parts().size();
        }
        assertEquals(103, parts);
        assertEquals(List.of("q14a", "q14b"), TpcdsQuery.load(QUERIES, 14).parts().stream()
                .map(TpcdsQuery.Part::name).toList());
        assertEquals("q7", TpcdsQuery.load(QUERIES, 7).parts().get(0).workload().name());
    }

    @Test
    void aQueryNamesTheTablesItReads() throws Exception {
        assertEquals(Set.of("date_dim", "item", "store_sales"), TpcdsQuery.load(QUERIES, 3).tables());
        assertEquals(Set.of("catalog_sales", "customer", "date_dim", "item", "store_sales", "web_sales"),
                TpcdsQuery.load(QUERIES, 23).tables());
    }

    @Test
    void queryListsAreCheckedAgainstTheNinetyNine() {
        assertEquals(List.of(1, 2, 3), TpcdsQuery.parseNumbers("1-3"));
        assertEquals(List.of(14, 23, 72, 73), TpcdsQuery.parseNumbers("14,23,72-73"));
        assertEquals(99, TpcdsQuery.parseNumbers("1-99").size());
        for (String bad : List.of("0", "100", "5-3", "1-2-3", "x", "")) {
            assertTrue(assertThrows(IllegalArgumentException.class, () -> TpcdsQuery.parseNumbers(bad))
                    .getMessage().contains("--queries"), bad);
        }
    }
}
