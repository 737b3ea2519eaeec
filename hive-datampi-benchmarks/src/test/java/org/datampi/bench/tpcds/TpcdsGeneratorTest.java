package org.datampi.bench.tpcds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TpcdsGeneratorTest {
    @Test
    void writesTheTwentyFourTablesInDsdgensFormatAndResumes(@TempDir Path out) throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream progress = new PrintStream(log, true, StandardCharsets.UTF_8);
        new TpcdsGenerator(0.01, out, 2, 2, progress).generate();

        assertEquals(24, TpcdsGenerator.tableNames().size());
        for (String table : TpcdsGenerator.tableNames()) {
            try (Stream<Path> files = Files.list(out.resolve(table))) {
                assertFalse(files.filter(file -> file.toString().endsWith(".dat")).toList().isEmpty(), table);
            }
        }
        // customer_demographics has 1,920,800 rows at any scale: dsdgen's chunks, one file each.
        assertTrue(Files.exists(out.resolve("customer_demographics/customer_demographics_2.dat")));
        List<String> reasons = Files.readAllLines(out.resolve("reason/reason.dat"));
        assertEquals("1|AAAAAAAABAAAAAAA|Package was damaged|", reasons.get(0), "dsdgen's row format");
        assertEquals("scale=0.01", Files.readAllLines(out.resolve(TpcdsGenerator.MARKER)).get(0));

        // A chunk that an interrupted run did not finish is written again; the others are kept.
        Path store = out.resolve("store/store.dat");
        String storeRows = Files.readString(store);
        Files.delete(store);
        Files.delete(out.resolve(TpcdsGenerator.MARKER));
        log.reset();
        new TpcdsGenerator(0.01, out, 2, 2, progress).generate();
        assertEquals(storeRows, Files.readString(store), "the same rows again");
        String again = log.toString(StandardCharsets.UTF_8);
        assertTrue(again.contains("tpcds-gen: store chunk 1: "), again);
        assertTrue(again.contains("tpcds-gen: date_dim chunk 1 already there"), again);
        assertTrue(Files.exists(out.resolve(TpcdsGenerator.MARKER)));
    }
}
