package org.datampi.layers;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** datampi-shuffle's packages, top down (the README's Layout section): calls go one way, no package cycle. */
class ShufflePackageLayersTest {
    private static final Path CLASSES = Path.of("target/classes");
    /** The rank's runtime, the MPI_D API, the engine, its memory, spill, merge, down to the pairs' byte form. */
    private static final PackageLayers LAYERS = PackageLayers.of(
            List.of("org.datampi.runtime"),
            List.of("org.datampi.mpid"),
            List.of("org.datampi.shuffle", "org.datampi.shuffle.engine"),
            List.of("org.datampi.shuffle.buffer", "org.datampi.shuffle.codec", "org.datampi.transport",
                    "org.datampi.status"),
            List.of("org.datampi.shuffle.spill"),
            List.of("org.datampi.shuffle.merge"),
            List.of("org.datampi.shuffle.pairs"));

    @Test
    void everyPackageImportsOnlyLayersBelowItsOwn() throws Exception {
        LAYERS.assertFollowedBy(CLASSES);
    }

    @Test
    void theCheckFailsOnLayersThatTheClassesDoNotFollow() {
        PackageLayers upsideDown = PackageLayers.of(
                List.of("org.datampi.shuffle.pairs"),
                List.of("org.datampi.shuffle.merge"),
                List.of("org.datampi.shuffle.spill"),
                List.of("org.datampi.shuffle.buffer", "org.datampi.shuffle.codec", "org.datampi.transport",
                        "org.datampi.status"),
                List.of("org.datampi.shuffle", "org.datampi.shuffle.engine"),
                List.of("org.datampi.mpid"),
                List.of("org.datampi.runtime"));
        AssertionFailedError failure = assertThrows(AssertionFailedError.class,
                () -> upsideDown.assertFollowedBy(CLASSES));
        assertTrue(failure.getMessage().contains("org.datampi.shuffle.spill.SpillFiles -> "
                + "org.datampi.shuffle.merge.FileRunCursor: org.datampi.shuffle.spill may not import "
                + "org.datampi.shuffle.merge, a package above it"), failure.getMessage());
        PackageLayers missingOne = PackageLayers.of(List.of("org.datampi.runtime"));
        failure = assertThrows(AssertionFailedError.class, () -> missingOne.assertFollowedBy(CLASSES));
        assertTrue(failure.getMessage().contains("package org.datampi.mpid is in no layer"), failure.getMessage());
    }
}
