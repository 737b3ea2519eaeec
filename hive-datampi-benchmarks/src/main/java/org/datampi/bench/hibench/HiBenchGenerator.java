package org.datampi.bench.hibench;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

import org.apache.commons.math3.distribution.ZipfDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.datampi.bench.harness.RunnerOptions;

/**
 * bin/hibench-gen: writes HiBench's {@code rankings} and {@code uservisits} tables for the Hive workloads, with
 * HiBench's schemas and distributions, reproducible for a seed, streaming (only the pages' inbound link counts are
 * held in memory), one directory per table.
 *
 * <ul>
 *   <li>rankings(pageURL, pageRank, avgDuration): one row per page; pageRank is the page's inbound-link count in a
 *       link graph whose link targets follow a Zipf distribution (exponent 0.5) over the pages, avgDuration is
 *       uniform in 1-99.</li>
 *   <li>uservisits(sourceIP, destURL, visitDate, adRevenue, userAgent, countryCode, languageCode, searchWord,
 *       duration): sourceIP of four random octets, destURL uniform over the pages, visitDate uniform in
 *       1970-01-01..2012-05-01, adRevenue uniform in [0, 1), duration uniform in 1-10, the others from HiBench-like
 *       word lists.</li>
 * </ul>
 */
public final class HiBenchGenerator {
    private static final String USAGE = "hibench-gen --profile tiny|small|large|huge --format text|sequencefile|orc "
            + "--out DIR [--seed N]";
    private static final double LINK_EXPONENT = 0.5;
    private static final int MAX_OUT_LINKS = 20;
    private static final LocalDate FIRST_VISIT = LocalDate.of(1970, 1, 1);
    private static final int VISIT_DAYS = (int) (LocalDate.of(2012, 5, 1).toEpochDay() - FIRST_VISIT.toEpochDay()) + 1;
    private static final long PROGRESS_ROWS = 1_000_000;
    private static final List<String> USER_AGENTS = List.of("Mozilla/5.0 (Windows NT 6.1)",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_7_3)", "Mozilla/5.0 (X11; Linux x86_64)",
            "Opera/9.80 (Windows NT 6.0)", "Mozilla/4.0 (compatible; MSIE 8.0)", "Safari/534.52.7",
            "Googlebot/2.1", "Wget/1.12");
    private static final List<String> COUNTRIES = List.of("USA", "CHN", "IND", "BRA", "DEU", "FRA", "GBR", "JPN",
            "RUS", "CAN", "AUS", "KOR", "MEX", "ESP", "ITA", "NLD");
    private static final List<String> LANGUAGES = List.of("en-US", "zh-CN", "hi-IN", "pt-BR", "de-DE", "fr-FR",
            "en-GB", "ja-JP", "ru-RU", "en-CA", "en-AU", "ko-KR", "es-MX", "es-ES", "it-IT", "nl-NL");
    private static final int SEARCH_WORDS = 1000;

    private final HiBenchProfile profile;
    private final HiBenchFormat format;
    private final Path out;
    private final long seed;
    private final PrintStream progress;

    public HiBenchGenerator(HiBenchProfile profile, HiBenchFormat format, Path out, long seed, PrintStream progress) {
        this.profile = requireNonNull(profile, "profile is null");
        this.format = requireNonNull(format, "format is null");
        this.out = requireNonNull(out, "out is null");
        this.seed = seed;
        this.progress = requireNonNull(progress, "progress is null");
    }

    public static void main(String[] args) throws IOException {
        RunnerOptions options = RunnerOptions.parse(USAGE, args, List.of("--profile", "--format", "--out", "--seed"),
                Map.of("--seed", "1"));
        long seed;
        try {
            seed = Long.parseLong(options.get("--seed"));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--seed must be a whole number, got '" + options.get("--seed") + "'");
        }
        new HiBenchGenerator(HiBenchProfile.of(options.get("--profile")), HiBenchFormat.of(options.get("--format")),
                Path.of(options.get("--out")), seed, System.err).generate();
    }

    public void generate() throws IOException {
        writeRankings(inboundLinks());
        for (int part = 0; part < profile.files(); part++) {
            writeUservisits(part);
        }
        progress.printf(Locale.ROOT, "hibench-gen: %s %s data in %s (seed %d)%n", profile.id(), format.id(), out,
                seed);
    }

    /** The link graph, kept only as each page's inbound-link count: its pageRank. */
    private int[] inboundLinks() {
        int pages = profile.pages();
        int[] inbound = new int[pages];
        SplittableRandom random = new SplittableRandom(seed);
        ZipfDistribution targets = new ZipfDistribution(new Well19937c(random.nextLong()), pages, LINK_EXPONENT);
        for (int page = 0; page < pages; page++) {
            int links = 1 + random.nextInt(MAX_OUT_LINKS);
            for (int link = 0; link < links; link++) {
                inbound[targets.sample() - 1]++;
            }
        }
        return inbound;
    }

    private void writeRankings(int[] inbound) throws IOException {
        SplittableRandom random = new SplittableRandom(seed ^ 0x5DEECE66DL);
        int files = profile.files();
        int page = 0;
        for (int part = 0; part < files; part++) {
            int end = (int) ((long) inbound.length * (part + 1) / files);
            try (RowWriter rows = RowWriter.open(format, HiBenchTable.RANKINGS, file(HiBenchTable.RANKINGS, part))) {
                for (; page < end; page++) {
                    rows.write(new Object[] {pageUrl(page), inbound[page], 1 + random.nextInt(99)});
                }
            }
        }
        progress.printf(Locale.ROOT, "hibench-gen: rankings done, %,d rows in %d file(s)%n", inbound.length, files);
    }

    private void writeUservisits(int part) throws IOException {
        long first = profile.uservisits() * part / profile.files();
        long end = profile.uservisits() * (part + 1) / profile.files();
        // One stream per file: a file's rows depend on the seed and the file alone.
        SplittableRandom random = new SplittableRandom(seed * 1_000_003L + part);
        try (RowWriter rows = RowWriter.open(format, HiBenchTable.USERVISITS, file(HiBenchTable.USERVISITS, part))) {
            for (long row = first; row < end; row++) {
                rows.write(new Object[] {
                    random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(256) + "."
                            + random.nextInt(256),
                    pageUrl(random.nextInt(profile.pages())),
                    FIRST_VISIT.plusDays(random.nextInt(VISIT_DAYS)).toString(),
                    random.nextDouble(),
                    USER_AGENTS.get(random.nextInt(USER_AGENTS.size())),
                    COUNTRIES.get(random.nextInt(COUNTRIES.size())),
                    LANGUAGES.get(random.nextInt(LANGUAGES.size())),
                    searchWord(random.nextInt(SEARCH_WORDS)),
                    1 + random.nextInt(10)});
                if ((row + 1) % PROGRESS_ROWS == 0) {
                    progress.printf(Locale.ROOT, "hibench-gen: uservisits %,d of %,d rows%n", row + 1,
                            profile.uservisits());
                }
            }
        }
        if (part == profile.files() - 1) {
            progress.printf(Locale.ROOT, "hibench-gen: uservisits done, %,d rows in %d file(s)%n",
                    profile.uservisits(), profile.files());
        }
    }

    private Path file(HiBenchTable table, int part) throws IOException {
        Path directory = Files.createDirectories(out.resolve(table.directory()));
        return directory.resolve(String.format(Locale.ROOT, "part-%05d%s", part, format == HiBenchFormat.ORC
                ? ".orc" : format == HiBenchFormat.SEQUENCEFILE ? ".seq" : ""));
    }

    /** A page's URL: a function of the page number and the seed, so that uservisits can name any page. */
    String pageUrl(int page) {
        return "http://" + word(seed * 31 + page, 6 + (int) Long.remainderUnsigned(mix(seed + page), 10)) + ".com/"
                + page;
    }

    private String searchWord(int index) {
        return word(seed * 17 + index + 1_000_000_007L, 4 + index % 8);
    }

    private static String word(long seed, int length) {
        StringBuilder word = new StringBuilder(length);
        long bits = seed;
        for (int i = 0; i < length; i++) {
            bits = mix(bits + i);
            word.append((char) ('a' + Long.remainderUnsigned(bits, 26)));
        }
        return word.toString();
    }

    /** SplitMix64's finalizer: a well-spread 64-bit hash. */
    private static long mix(long value) {
        long z = value + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
