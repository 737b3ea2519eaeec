package org.datampi.bench.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

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
     * A run that left files missing is resumed: the files there are kept as they are, the missing ones written
     * again, the same.
     */
    @Test
    void aRerunWritesOnlyWhatIsMissing() throws Exception {
        new TpchGenerator(0.01, out, 2, QUIET).generate();
        List<String> complete = lines(out.resolve("orders"));
        Path kept = out.resolve("lineitem").resolve("lineitem.tbl.1");
        Files.writeString(kept, "kept|\n");
        Files.delete(out.resolve("orders").resolve("orders.tbl.2"));

        new TpchGenerator(0.01, out, 2, QUIET).generate();

        assertEquals(List.of("kept|"), Files.readAllLines(kept), "a complete file is not written again");
        assertEquals(complete, lines(out.resolve("orders")), "the missing file is written again, the same");
        assertTrue(Files.readString(out.resolve(TpchGenerator.MARKER)).contains("scale=0.01\nfiles=2\n"));
    }

    /** Files of another scale or file count, or of one not recorded, are not mixed with a new run's. */
    @Test
    void aDirectoryOfOtherDataIsRefused(@TempDir Path unrecorded) throws Exception {
        new TpchGenerator(0.01, out, 2, QUIET).generate();
        assertTrue(assertThrows(IllegalStateException.class, () -> new TpchGenerator(0.02, out, 2, QUIET).generate())
                .getMessage().contains("holds TPC-H data of scale=0.01 files=2"));
        assertThrows(IllegalStateException.class, () -> new TpchGenerator(0.01, out, 3, QUIET).generate());

        Files.createDirectories(unrecorded.resolve("lineitem"));
        assertTrue(assertThrows(IllegalStateException.class,
                () -> new TpchGenerator(0.01, unrecorded, 2, QUIET).generate()).getMessage()
                .contains("whose scale was not recorded"));
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
