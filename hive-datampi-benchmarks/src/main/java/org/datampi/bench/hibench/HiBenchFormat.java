package org.datampi.bench.hibench;

import java.util.Arrays;
import java.util.Locale;

/** How the generated tables are stored, and how Hive declares such a table. */
public enum HiBenchFormat {
    /** Comma-separated text files, HiBench 3.0's layout. */
    TEXT("ROW FORMAT DELIMITED FIELDS TERMINATED BY ','", "TEXTFILE"),
    /** HiBench's own default: SequenceFiles of (LongWritable row number, Text comma-separated row). */
    SEQUENCEFILE("ROW FORMAT DELIMITED FIELDS TERMINATED BY ','", "SEQUENCEFILE"),
    ORC("", "ORC");

    private final String rowFormat;
    private final String storedAs;

    HiBenchFormat(String rowFormat, String storedAs) {
        this.rowFormat = rowFormat;
        this.storedAs = storedAs;
    }

    public String rowFormat() {
        return rowFormat;
    }

    public String storedAs() {
        return storedAs;
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static HiBenchFormat of(String name) {
        return Arrays.stream(values()).filter(f -> f.id().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Invalid value '" + name
                        + "' for --format: expected text, sequencefile or orc"));
    }
}
