package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;

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
        Path rankDir = RankDirectory.userRoot(root).resolve("datampi-job_2/rank-1");
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
        assertFalse(Files.exists(RankDirectory.userRoot(root).resolve("datampi-job_2")),
                "the job's directory goes with its last rank");
    }

    /**
     * A rank killed while claiming (its directory made, its owner file not yet renamed into place) leaves its claiming
     * file, named with its process id: the sweep removes the directory once that process is gone, not before.
     */
    @Test
    void aRankKilledWhileClaimingLeavesNothingBehind() throws Exception {
        Process killed = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-version").start();
        killed.waitFor();
        Path orphan = Files.createDirectories(RankDirectory.userRoot(root).resolve("datampi-job_6/rank-0"));
        Files.createFile(orphan.resolve(RankDirectory.claimingName(killed.pid())));
        Path claiming = Files.createDirectories(RankDirectory.userRoot(root).resolve("datampi-job_7/rank-0"));
        Files.createFile(claiming.resolve(RankDirectory.claimingName(ProcessHandle.current().pid())));

        assertEquals(1, RankDirectory.sweep(root));
        assertFalse(Files.exists(orphan.getParent()), "the killed rank's directory and its job's are gone");
        assertTrue(Files.exists(claiming), "a rank still claiming keeps its directory");
    }

    /** A sweep where no rank of the user ran (or after its directory went) finds nothing and makes nothing. */
    @Test
    void aSweepMakesNoDirectory() {
        Path local = root.resolve("local");
        assertEquals(0, RankDirectory.sweep(local));
        assertFalse(Files.exists(local), "a sweep that ran after a cleanup does not put the directory back");
    }

    @Test
    void aDirectoryWithoutAnOwnerIsLeftAlone() throws IOException {
        Path other = Files.createDirectories(RankDirectory.userRoot(root).resolve("datampi-job_3/rank-0"));
        assertEquals(0, RankDirectory.sweep(root));
        assertTrue(Files.exists(other));
    }

    /** Everything a rank writes is under the user's own directory, which no one else may enter. */
    @Test
    void theRanksFilesAreUnderTheUsersPrivateDirectory() throws Exception {
        try (RankDirectory directory = RankDirectory.claim(root, "job_4", 1)) {
            Path user = root.resolve("datampi-" + System.getProperty("user.name"));
            assertEquals(user.resolve("datampi-job_4/rank-1"), directory.path());
            for (Path path : List.of(user, user.resolve("datampi-job_4"), directory.path())) {
                assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(path)),
                        path.toString());
            }
        }
        // Opened up by its user: closed again before use.
        Path user = RankDirectory.userRoot(root);
        Files.setPosixFilePermissions(user, PosixFilePermissions.fromString("rwxrwxrwx"));
        RankDirectory.userRoot(root);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(user)));
    }

    /** A link (or a file) where the user's directory goes is refused, naming it: a rank never writes through it. */
    @Test
    void aLinkInPlaceOfTheUsersDirectoryIsRefused() throws Exception {
        Path elsewhere = Files.createDirectories(root.resolve("elsewhere"));
        Path local = Files.createDirectories(root.resolve("local"));
        Files.createSymbolicLink(local.resolve("datampi-" + System.getProperty("user.name")), elsewhere);

        UncheckedIOException refused = assertThrows(UncheckedIOException.class,
                () -> RankDirectory.claim(local, "job_5", 0));
        assertTrue(refused.getMessage().contains(local.resolve("datampi-" + System.getProperty("user.name"))
                + " for the ranks' local files (mpid.local.dir)") && refused.getMessage().contains("a link"),
                refused.getMessage());
        try (Stream<Path> written = Files.list(elsewhere)) {
            assertEquals(0, written.count(), "nothing was written through the link");
        }
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
