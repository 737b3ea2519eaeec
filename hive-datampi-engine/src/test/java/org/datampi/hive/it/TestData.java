package org.datampi.hive.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The corpus's data, generated: a fact table (in several files, so a stage has more O tasks than processes) with
 * NULLs, DECIMAL, DATE, TIMESTAMP and non-ASCII strings, and a small dimension table, as '|'-delimited text.
 */
final class TestData {
    static final String SALES_COLUMNS = "id INT, name STRING, category STRING, amount DECIMAL(12,2), "
            + "qty INT, d DATE, ts TIMESTAMP, flag BOOLEAN";
    static final String[] CATEGORIES = {"books", "música", "東京", "naïve", "tools", "garden", "Ålesund", "toys"};
    private static final String[] NAMES = {"Zoë", "Łukasz", "Ærø", "José", "Ann", "李", "Bob", "Émile"};

    private TestData() {
    }

    /** Writes FILES files of ROWS rows each into dir/sales; returns the directory. */
    static Path writeSales(Path dir, int files, int rowsPerFile) throws IOException {
        Path sales = Files.createDirectories(dir.resolve("sales"));
        SplittableRandom random = new SplittableRandom(20261121);
        int id = 0;
        for (int f = 0; f < files; f++) {
            List<String> lines = new ArrayList<>();
            for (int r = 0; r < rowsPerFile; r++, id++) {
                String category = random.nextInt(25) == 0 ? "\\N" : CATEGORIES[random.nextInt(CATEGORIES.length)];
                String amount = random.nextInt(30) == 0 ? "\\N"
                        : random.nextInt(100_000) + "." + String.format("%02d", random.nextInt(100));
                String qty = random.nextInt(40) == 0 ? "\\N" : Integer.toString(random.nextInt(50) - 5);
                LocalDate day = LocalDate.of(2020, 1, 1).plusDays(random.nextInt(1500));
                LocalDateTime time = day.atStartOfDay().plusSeconds(random.nextInt(86_400))
                        .plusNanos(random.nextInt(1000) * 1_000_000L);
                lines.add(String.join("|", Integer.toString(id), NAMES[random.nextInt(NAMES.length)] + id % 97,
                        category, amount, qty, day.toString(), time.toString().replace('T', ' '),
                        Boolean.toString(random.nextBoolean())));
            }
            Files.write(sales.resolve("part-" + f + ".txt"), lines, StandardCharsets.UTF_8);
        }
        return sales;
    }

    /** The dimension: most categories (one missing, one extra), with a region and a NULL-keyed row. */
    static Path writeCategories(Path dir) throws IOException {
        Path categories = Files.createDirectories(dir.resolve("categories"));
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < CATEGORIES.length - 1; i++) {
            lines.add(CATEGORIES[i] + "|region-" + (i % 3) + "|" + (i * 7 % 5));
        }
        lines.add("unsold|region-9|1");
        lines.add("\\N|region-null|0");
        Files.write(categories.resolve("categories.txt"), lines, StandardCharsets.UTF_8);
        return categories;
    }
}
