package org.datampi.bench;

import java.nio.file.Path;
import java.util.List;

import org.datampi.layers.PackageLayers;
import org.junit.jupiter.api.Test;

/**
 * hive-datampi-benchmarks' packages, top down: the HiveServer2 load driver over the workloads it runs, each workload
 * (and the start-up bench, and Hive's qfiles run by bin/hive-compat) over the harness they share; no package cycle.
 */
class BenchmarkPackageLayersTest {
    @Test
    void everyPackageImportsOnlyLayersBelowItsOwn() throws Exception {
        PackageLayers.of(
                List.of("org.datampi.bench.hs2"),
                List.of("org.datampi.bench.tpch", "org.datampi.bench.tpcds", "org.datampi.bench.hibench",
                        "org.datampi.bench.startup", "org.datampi.bench.compat"),
                List.of("org.datampi.bench.harness"))
                .assertFollowedBy(Path.of("target/classes"));
    }
}
