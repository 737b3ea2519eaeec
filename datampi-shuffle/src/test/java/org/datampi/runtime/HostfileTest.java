package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostfileTest {
    @TempDir
    Path dir;

    /** Both forms, comments, a host without a count, a host on two lines: as Open MPI and Hydra read them. */
    @Test
    void bothFormsAreReadAndHydrasIsWritten() throws Exception {
        Path file = Files.writeString(dir.resolve("hosts"), "# the cluster\ndmp1 slots=2\n\ndmp2:3  # big\ndmp1\n");
        Hostfile hostfile = Hostfile.read(file);

        assertEquals(List.of(new Hostfile.Host("dmp1", 2), new Hostfile.Host("dmp2", 3), new Hostfile.Host("dmp1", 1)),
                hostfile.hosts());
        assertEquals(6, hostfile.slots());
        assertEquals(List.of("dmp1:2", "dmp2:3", "dmp1:1"), hostfile.mpichLines());
    }

    @Test
    void aBadLineIsNamedAndRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("hosts"), "dmp1 slots=2\ndmp2 slots=none\n");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Hostfile.read(file));
        assertEquals("The hostfile " + file + " line 2 is not 'host slots=N' or 'host:N' with N >= 1: "
                + "'dmp2 slots=none'", refused.getMessage());
    }
}
