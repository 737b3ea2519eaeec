package org.datampi.examples;

import java.nio.file.Path;
import java.util.List;

import org.datampi.layers.PackageLayers;
import org.junit.jupiter.api.Test;

/** datampi-examples' packages, top down: the shuffle benchmarks over the example jobs they run; no package cycle. */
class ExamplePackageLayersTest {
    @Test
    void everyPackageImportsOnlyLayersBelowItsOwn() throws Exception {
        PackageLayers.of(
                List.of("org.datampi.bench"),
                List.of("org.datampi.examples"))
                .assertFollowedBy(Path.of("target/classes"));
    }
}
