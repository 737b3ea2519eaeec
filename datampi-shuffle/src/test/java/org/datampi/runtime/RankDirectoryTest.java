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

    /**
     * A sweep in the process that holds a directory keeps it, and keeps it locked: probing one's own lock would
     * release it, and another process's sweep would then take it for a gone rank's.
     */
    @Test
    void aDirectoryInUseIsKeptAndStaysLocked() throws Exception {
        try (RankDirectory directory = RankDirectory.claim(root, "job_1", 0)) {
            Files.writeString(directory.path().resolve("spill-0"), "run");
            assertEquals(0, RankDirectory.sweep(root));
            assertTrue(Files.exists(directory.path().resolve("spill-0")));
            Process probe = java("Probe", "FileChannel c = FileChannel.open(Path.of(a[0]), StandardOpenOption.WRITE); "
                    + "System.exit(c.tryLock() == null ? 1 : 0);", directory.path().resolve(RankDirectory.OWNER));
            assertEquals(1, probe.waitFor(), "another process cannot take the owner's lock");
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
        Process holder = java("Holder", "FileChannel c = FileChannel.open(Path.of(a[0]), StandardOpenOption.WRITE); "
                + "c.lock(); System.out.println(\"locked\"); Thread.sleep(600_000);", owner);
        try {
            String locked = new String(holder.getInputStream().readNBytes(6));
            assertEquals("locked", locked, "the holder took the lock");
            assertEquals(0, RankDirectory.sweep(root), "a running rank's directory is kept");
        } finally {
            holder.destroyForcibly().waitFor();
        }
        assertEquals(1, RankDirectory.sweep(root));
        assertFalse(Files.exists(root.resolve("datampi-job_2")), "the job's directory goes with its last rank");
    }

    @Test
    void aDirectoryWithoutAnOwnerIsLeftAlone() throws IOException {
        Path other = Files.createDirectories(root.resolve("datampi-job_3/rank-0"));
        assertEquals(0, RankDirectory.sweep(root));
        assertTrue(Files.exists(other));
    }

    /** Another JVM running BODY (with a = its arguments): a process of its own, as another rank is. */
    private Process java(String name, String body, Path argument) throws IOException {
        Path source = root.resolve(name + ".java");
        Files.writeString(source, "import java.nio.channels.FileChannel; import java.nio.file.*; class " + name
                + " { public static void main(String[] a) throws Exception { " + body + " } }");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new ProcessBuilder(java.toString(), source.toString(), argument.toString()).start();
    }
}
