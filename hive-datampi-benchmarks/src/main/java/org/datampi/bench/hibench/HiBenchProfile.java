package org.datampi.bench.hibench;

import java.util.Arrays;
import java.util.Locale;

/**
 * HiBench's data scales for the Hive workloads: uservisits rows and pages (rankings rows), and how many files
 * each table is written in (so that a scan has several input splits).
 */
public enum HiBenchProfile {
    TINY(1_000, 120, 1),
    SMALL(100_000, 12_000, 2),
    LARGE(1_000_000, 120_000, 4),
    HUGE(10_000_000, 1_200_000, 8);

    private final long uservisits;
    private final int pages;
    private final int files;

    HiBenchProfile(long uservisits, int pages, int files) {
        this.uservisits = uservisits;
        this.pages = pages;
        this.files = files;
    }

    public long uservisits() {
        return uservisits;
    }

    public int pages() {
        return pages;
    }

    public int files() {
        return files;
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static HiBenchProfile of(String name) {
        return Arrays.stream(values()).filter(p -> p.id().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Invalid value '" + name
                        + "' for --profile: expected tiny, small, large or huge"));
    }
}
