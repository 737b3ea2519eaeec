package org.datampi.bench.tpcds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.datampi.bench.harness.Workload;
import org.junit.jupiter.api.Test;

class TpcdsAcidTest {
    private static final Path QUERIES = Path.of(System.getProperty("datampi.home", "../"), "tpcds-queries");

    @Test
    void theDefaultQueriesReadTheCopyWhereTheyReadStoreSales() throws Exception {
        for (int number : TpcdsQuery.parseNumbers(TpcdsAcid.DEFAULT_QUERIES)) {
            for (TpcdsQuery.Part part : TpcdsQuery.load(QUERIES, number).parts()) {
                String sql = TpcdsAcid.overCopy(part).statements().get(0);
                assertTrue(sql.contains(TpcdsAcid.TABLE), part.name() + " does not read the copy");
                assertFalse(sql.matches("(?s).*\\bstore_sales\\b.*"), part.name() + " still reads store_sales");
                // Only the table's name changes: its columns (ss_...) and other tables are as they were.
                assertEquals(part.sql().replaceAll("\\bstore_sales\\b", "X"),
                        sql.replace(TpcdsAcid.TABLE, "X"), part.name());
            }
        }
    }

    @Test
    void eachChangeTouchesItsOwnHundredthAndIsJudgedByTheCopysTotals() {
        List<Workload> changes = TpcdsAcid.changes();
        assertEquals(List.of("acid_insert", "acid_update", "acid_delete", "acid_merge"),
                changes.stream().map(Workload::name).toList());
        Pattern residue = Pattern.compile("ss_ticket_number % 100 = (\\d+)");
        Set<String> residues = new HashSet<>();
        for (Workload change : changes) {
            assertEquals(Optional.of(TpcdsAcid.TOTALS), change.output(), change.name());
            Matcher matcher = residue.matcher(change.statements().get(0));
            assertTrue(matcher.find(), change.name());
            assertTrue(residues.add(matcher.group(1)), change.name() + " changes the rows another change does");
        }
    }
}
