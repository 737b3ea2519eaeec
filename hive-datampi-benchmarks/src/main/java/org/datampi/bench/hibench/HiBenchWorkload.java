package org.datampi.bench.hibench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

import org.datampi.bench.harness.Workload;
import org.datampi.hive.cli.HiveQlScript;

/** HiBench's Hive workloads in hibench-workloads/, and the table each one writes. */
public enum HiBenchWorkload {
    AGGREGATION("aggregation", "uservisits_aggre"),
    JOIN("join", "rankings_uservisits_join"),
    SCAN("scan", "uservisits_copy"),
    /** HiBench 3.0's join, which the paper ran. */
    JOIN_LIMIT1("join-limit1", "rankings_uservisits_join");

    private final String id;
    private final String outputTable;

    HiBenchWorkload(String id, String outputTable) {
        this.id = id;
        this.outputTable = outputTable;
    }

    public String id() {
        return id;
    }

    /** As the runners time it: its INSERT, then its output table read back (untimed) as the result. */
    public Workload load(Path workloadDir) throws IOException {
        String text = Files.readString(workloadDir.resolve(id + ".sql"));
        return new Workload(id, HiveQlScript.parse(text).all(), Optional.of("SELECT * FROM " + outputTable));
    }

    public static HiBenchWorkload of(String id) {
        return Arrays.stream(values()).filter(w -> w.id.equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Invalid workload '" + id
                        + "': expected aggregation, join, scan or join-limit1"));
    }
}
