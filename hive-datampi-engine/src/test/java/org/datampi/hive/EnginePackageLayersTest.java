package org.datampi.hive;

import java.nio.file.Path;
import java.util.List;

import org.datampi.layers.PackageLayers;
import org.junit.jupiter.api.Test;

/**
 * hive-datampi-engine's packages, top down (the README's Layout section): Hive's entry points and sessions, the
 * compiler's bends and plans, Hive's tasks, the client that launches stages, the programs ranks run, the DAG they run,
 * and at the bottom the settings and what they decide. Calls go one way; no package cycle.
 */
class EnginePackageLayersTest {
    @Test
    void everyPackageImportsOnlyLayersBelowItsOwn() throws Exception {
        PackageLayers.of(
                List.of("org.datampi.hive.cli"),
                List.of("org.datampi.hive.session"),
                List.of("org.datampi.hive.plan"),
                List.of("org.datampi.hive.exec"),
                List.of("org.datampi.hive.client"),
                List.of("org.datampi.hive.app"),
                List.of("org.datampi.hive.dag"),
                List.of("org.datampi.hive.conf", "org.datampi.hive.fs"))
                .assertFollowedBy(Path.of("target/classes"));
    }
}
