package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RankDirectoryTest {
    @TempDir
    Path root;

    @Test
    void aDirectoryInUseIsKept() throws IOException {
        try (RankDirectory directory = RankDirectory.claim(root, "job_1", 0)) {
            Files.writeString(directory.path().resolve("spill-0"), "run");
            assertEquals(0, RankDirectory.sweep(root));
            assertTrue(Files.exists(directory.path().resolve("spill-0")));
        }
    }

    /** A process killed with SIGKILL leaves its directory and loses its lock: the next sweep removes both. */
    @Test
    void aKilledRanksDirectoryIsRemoved() throws Exception {
        Path rankDir = root.resolve("datampi-job_2/rank-1");
        Files.createDirectories(rankDir);
        Files.writeString(rankDir.resolve("spill-0"), "run");
        Path owner = rankDir.resolve(RankDirectory.OWNER);
        Files.createFile(owner);
        // Another JVM holds the owner's lock (a POSIX record lock, as FileChannel takes it) as a running rank would;
        // then it is killed.
        Path holderSource = root.resolve("Holder.java");
        Files.writeString(holderSource, "import java.nio.channels.FileChannel; import java.nio.file.*; "
                + "class Holder { public static void main(String[] a) throws Exception { FileChannel c = "
                + "FileChannel.open(Path.of(a[0]), StandardOpenOption.WRITE); c.lock(); System.out.println(\"locked\");"
                + " Thread.sleep(600_000); } }");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process holder = new ProcessBuilder(java.toString(), holderSource.toString(), owner.toString()).start();
        String locked = new String(holder.getInputStream().readNBytes(6));
        assertEquals("locked", locked, "the holder took the lock");
        assertEquals(0, RankDirectory.sweep(root), "a running rank's directory is kept");
        holder.destroyForcibly().waitFor();
        assertEquals(1, RankDirectory.sweep(root));
        assertFalse(Files.exists(root.resolve("datampi-job_2")), "the job's directory goes with its last rank");
    }

    @Test
    void aDirectoryWithoutAnOwnerIsLeftAlone() throws IOException {
        Path other = Files.createDirectories(root.resolve("datampi-job_3/rank-0"));
        assertEquals(0, RankDirectory.sweep(root));
        assertTrue(Files.exists(other));
    }
}
