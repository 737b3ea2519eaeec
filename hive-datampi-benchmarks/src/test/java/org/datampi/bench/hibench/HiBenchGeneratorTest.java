package org.datampi.bench.hibench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HiBenchGeneratorTest {
    @TempDir
    Path temp;

    @Test
    void theSameSeedWritesTheSameFilesAndAnotherSeedOthers() throws IOException {
        List<String> first = generate(temp.resolve("a"), 3);
        assertEquals(first, generate(temp.resolve("b"), 3));
        assertNotEquals(first, generate(temp.resolve("c"), 4));
    }

    @Test
    void rowsFollowHiBenchsSchemasAndDistributions() throws IOException {
        Path out = temp.resolve("data");
        generate(out, 5);
        List<String> rankings = lines(out.resolve("rankings"));
        List<String> visits = lines(out.resolve("uservisits"));
        assertEquals(HiBenchProfile.SMALL.pages(), rankings.size());
        assertEquals(HiBenchProfile.SMALL.uservisits(), visits.size());

        Set<String> pages = new HashSet<>();
        long links = 0;
        int mostLinked = 0;
        for (String row : rankings) {
            String[] fields = row.split(",", -1);
            assertEquals(3, fields.length, row);
            assertTrue(pages.add(fields[0]), "page URLs are unique: " + fields[0]);
            int avgDuration = Integer.parseInt(fields[2]);
            assertTrue(avgDuration >= 1 && avgDuration <= 99, row);
            links += Integer.parseInt(fields[1]);
            mostLinked = Math.max(mostLinked, Integer.parseInt(fields[1]));
        }
        // 1-20 links per page, Zipf-distributed targets: the top page gets far more than the average.
        assertTrue(links >= pages.size() && links <= 20L * pages.size(), "links " + links);
        assertTrue(mostLinked > 20 * links / pages.size(), "most-linked page " + mostLinked);

        for (String row : visits) {
            String[] fields = row.split(",", -1);
            assertEquals(9, fields.length, row);
            assertTrue(fields[0].matches("\\d{1,3}(\\.\\d{1,3}){3}"), row);
            assertTrue(pages.contains(fields[1]), "destURL is a page: " + row);
            assertTrue(fields[2].compareTo("1970-01-01") >= 0 && fields[2].compareTo("2012-05-01") <= 0, row);
            double adRevenue = Double.parseDouble(fields[3]);
            assertTrue(adRevenue >= 0 && adRevenue < 1, row);
            int duration = Integer.parseInt(fields[8]);
            assertTrue(duration >= 1 && duration <= 10, row);
        }
    }

    private static List<String> generate(Path out, long seed) throws IOException {
        new HiBenchGenerator(HiBenchProfile.SMALL, HiBenchFormat.TEXT, out, seed,
                new PrintStream(OutputStream.nullOutputStream())).generate();
        List<String> all = new ArrayList<>(lines(out.resolve("rankings")));
        all.addAll(lines(out.resolve("uservisits")));
        return all;
    }

    private static List<String> lines(Path directory) throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory).sorted()) {
            for (Path file : files.filter(p -> !p.getFileName().toString().startsWith(".")).toList()) {
                lines.addAll(Files.readAllLines(file));
            }
        }
        return lines;
    }
}
