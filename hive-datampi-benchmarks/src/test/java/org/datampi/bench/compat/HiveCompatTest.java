package org.datampi.bench.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class HiveCompatTest {
    private static final HiveTestJars NONE = HiveTestJars.none(Path.of("target/no-hive-test-jars"));

    @Test
    void batchesKeepTheFilesOrderWithinATimeZoneAndPutAnOnlyFileAlone() {
        Qfile a = Qfile.parse("a.q", "SELECT 1;", NONE);
        Qfile b = Qfile.parse("b.q", "--! qt:timezone:Asia/Tokyo\nSELECT 2;", NONE);
        Qfile c = Qfile.parse("c.q", "SELECT 3;", NONE);
        Qfile only = Qfile.parse("only.q", "--! qt:dataset:src:ONLY\nSELECT 4;", NONE);
        Qfile d = Qfile.parse("d.q", "SELECT 5;", NONE);
        Qfile e = Qfile.parse("e.q", "--! qt:timezone:Asia/Tokyo\nSELECT 6;", NONE);
        List<List<Qfile>> batches = HiveCompat.batches(List.of(a, b, c, only, d, e), 2);
        assertEquals(List.of(List.of("only.q"), List.of("a.q", "c.q"), List.of("d.q"), List.of("b.q", "e.q")),
                batches.stream().map(batch -> batch.stream().map(Qfile::name).toList()).toList());
    }

    @Test
    void aSampleIsTheStartOfTheWholeSetInItsRandomOrder() {
        List<Qfile> all = java.util.stream.IntStream.range(0, 40)
                .mapToObj(i -> Qfile.parse("f" + i + ".q", "SELECT " + i + ";", NONE)).toList();
        List<String> whole = names(HiveCompat.select(all, options("--sample", "all", "--seed", "2026")));
        List<String> sample = names(HiveCompat.select(all, options("--sample", "7", "--seed", "2026")));
        assertEquals(40, whole.size());
        assertEquals(all.stream().map(Qfile::name).sorted().toList(), whole.stream().sorted().toList());
        assertEquals(whole.subList(0, 7), sample);
        org.junit.jupiter.api.Assertions.assertNotEquals(all.stream().map(Qfile::name).toList(), whole, "shuffled");
    }

    private static org.datampi.bench.harness.RunnerOptions options(String... args) {
        return org.datampi.bench.harness.RunnerOptions.parse("usage", args, List.of("--sample", "--seed", "--files"),
                java.util.Map.of("--seed", "1"));
    }

    private static List<String> names(List<Qfile> files) {
        return files.stream().map(Qfile::name).toList();
    }

    @Test
    void resumeKeepsTheVerdictsAndRunsHarnessErrorsAgain() {
        String rest = "\t1.0\t2.0\t1\t\t1/1\t1/1";
        List<String> lines = List.of("file\tclass\tdetail\tmr_seconds\tdatampi_seconds\tdatampi_stages"
                + "\trecorded_at_difference\tmr_recorded\tdatampi_recorded", "a.q\tsame\t" + rest,
                "b.q\tharness-error\tmr's session JVM ended with exit 1" + rest,
                "c.q\tfails-on-datampi\tthe session JVM ended with exit 1" + rest, "", "d.q\tsa");
        Map<String, String[]> verdicts = HiveCompat.verdicts(lines);
        assertEquals(List.of("a.q", "c.q"), List.copyOf(verdicts.keySet()), "a blank row and one cut short run again");
        assertEquals("fails-on-datampi", verdicts.get("c.q")[1]);
    }

    @Test
    void aBatchLineNamesTheFileItsOutcomeAndItsConsole() {
        QfileSession.Entry entry = new QfileSession.Entry(Path.of("/r/a b.q"), Path.of("/o/mr.outcome"),
                Path.of("/o/mr.log"));
        assertEquals(entry, QfileSession.Entry.parse(entry.line()));
    }
}
