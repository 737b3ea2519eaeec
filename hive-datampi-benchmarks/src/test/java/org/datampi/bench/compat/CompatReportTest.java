package org.datampi.bench.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompatReportTest {
    @Test
    void aFilesFeatureIsToldByItsNameTheFirstThatMatches() {
        assertEquals("joins", CompatReport.featureOf("join_nulls.q"));
        assertEquals("vectorization", CompatReport.featureOf("vector_join30.q"));
        assertEquals("transactional tables", CompatReport.featureOf("mm_dp.q"));
        assertEquals("group by and aggregates", CompatReport.featureOf("groupby7.q"));
        assertEquals("windowing and PTF", CompatReport.featureOf("windowing_decimal.q"));
        assertEquals("other", CompatReport.featureOf("murmur_hash_migration.q"));
    }

    @Test
    void theTotalsAndTheFeaturesTableCountEachClassOnce(@TempDir Path directory) throws Exception {
        Path results = directory.resolve("results.tsv");
        Files.write(results, List.of(
                "file\tclass\tdetail\tmr_seconds\tdatampi_seconds\tdatampi_stages\trecorded_at_difference\t"
                        + "mr_recorded\tdatampi_recorded",
                "join1.q\tsame\t\t1.0\t2.0\t3\t\t2/2\t2/2",
                "join2.q\tdiffers\tstatement 3\t1.0\t2.0\t3\tdatampi\t1/2\t2/2",
                "join3.q\tfails-on-mr\tNPE\t1.0\t2.0\t3\t\t\t1/1",
                "groupby1.q\tsame\t\t1.0\t2.0\t3\t\t1/1\t1/1",
                "groupby2.q\tdiffers\tstatement 1\t1.0\t2.0\t3",
                "groupby3.q\tfails-on-datampi\tboom\t1.0\t2.0\t0\t\t\t"));
        String text = CompatReport.read(results).text();
        List<String> lines = text.lines().toList();
        assertEquals("6 files: 2 same, 2 differs, 1 fails-on-datampi, 1 fails-on-mr", lines.get(0));
        assertEquals("of the 5 files that run on mr, 2 (40.0%) give the same rows on datampi", lines.get(1));
        assertEquals("where they differ, Hive's recorded output has the rows of: datampi in 1, not recorded in 1",
                lines.get(2));
        assertTrue(lines.contains("| group by and aggregates | 3 | 1 | 1 | 1 | 0 | 0 | 33.3% |"), text);
        assertTrue(lines.contains("| joins | 3 | 1 | 1 | 0 | 1 | 0 | 50.0% |"), text);
    }
}
