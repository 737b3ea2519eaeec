package org.datampi.bench.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TpchGeneratorTest {
    /** The spec's cardinalities (TPC-H 4.2.5) at SF 0.01, and each table's number of columns. */
    private static final Map<String, long[]> SPEC = Map.of(
            "nation", new long[] {25, 4}, "region", new long[] {5, 3}, "supplier", new long[] {100, 7},
            "part", new long[] {2_000, 9}, "partsupp", new long[] {8_000, 5}, "customer", new long[] {1_500, 8},
            "orders", new long[] {15_000, 9});

    @TempDir
    Path out;

    @Test
    void writesEveryTableInDbgensFormatWithTheSpecsCardinalities() throws Exception {
        new TpchGenerator(0.01, out, 3, new PrintStream(OutputStream.nullOutputStream())).generate();

        assertEquals(8, TpchGenerator.tableNames().size());
        for (String table : TpchGenerator.tableNames()) {
            List<String> lines = lines(out.resolve(table));
            assertTrue(lines.stream().allMatch(line -> line.endsWith("|")), table + " rows end with '|'");
            if (SPEC.containsKey(table)) {
                assertEquals(SPEC.get(table)[0], lines.size(), table + " rows");
                assertEquals(SPEC.get(table)[1], lines.get(0).split("\\|").length, table + " columns");
            }
        }
        List<String> lineitems = lines(out.resolve("lineitem"));
        // Each order has 1 to 7 line items.
        assertTrue(lineitems.size() >= 15_000 && lineitems.size() <= 7 * 15_000, "lineitem rows " + lineitems.size());
        assertEquals(16, lineitems.get(0).split("\\|").length);
        try (Stream<Path> files = Files.list(out.resolve("lineitem"))) {
            assertEquals(List.of("lineitem.tbl.1", "lineitem.tbl.2", "lineitem.tbl.3"),
                    files.map(p -> p.getFileName().toString()).sorted().toList(), "no partial file is left");
        }
    }

    /**
     * A run interrupted after some files (no marker yet) is resumed: the files there are kept as they are, the
     * missing ones written, the marker last; the result is the same data.
     */
    @Test
    void aRerunWritesOnlyWhatIsMissingAndTheMarkerLast() throws Exception {
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        new TpchGenerator(0.01, out, 2, quiet).generate();
        List<String> complete = lines(out.resolve("orders"));
        Path kept = out.resolve("lineitem").resolve("lineitem.tbl.1");
        Files.writeString(kept, "kept|\n");
        Files.delete(out.resolve("orders").resolve("orders.tbl.2"));
        Files.delete(out.resolve(TpchGenerator.MARKER));

        new TpchGenerator(0.01, out, 2, quiet).generate();

        assertEquals(List.of("kept|"), Files.readAllLines(kept), "a complete file is not written again");
        assertEquals(complete, lines(out.resolve("orders")), "the missing file is written again, the same");
        assertTrue(Files.readString(out.resolve(TpchGenerator.MARKER)).contains("scale=0.01"));
    }

    private static List<String> lines(Path directory) throws Exception {
        try (Stream<Path> files = Files.list(directory)) {
            return files.sorted().flatMap(file -> {
                try {
                    return Files.readAllLines(file).stream();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }).toList();
        }
    }
}
