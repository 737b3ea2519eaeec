package org.datampi.hive.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The same statuses as Hadoop's own local file system gives (which forks ls -ld for them), and the same chmod. */
class PosixLocalFileSystemTest {
    @TempDir
    java.nio.file.Path dir;

    private FileSystem posix;
    private FileSystem hadoop;

    @BeforeEach
    void open() throws Exception {
        posix = new PosixLocalFileSystem();
        posix.initialize(URI.create("file:///"), new Configuration());
        hadoop = new LocalFileSystem();
        hadoop.initialize(URI.create("file:///"), new Configuration());
    }

    @AfterEach
    void close() throws Exception {
        posix.close();
        hadoop.close();
    }

    @Test
    void statusesAndListingsAreHadoopsOwn() throws Exception {
        java.nio.file.Path data = Files.writeString(dir.resolve("part-0"), "rows", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rw-r-----"));
        java.nio.file.Path sub = Files.createDirectories(dir.resolve("d=1"));
        Files.setPosixFilePermissions(sub, PosixFilePermissions.fromString("rwx-wx-wx"));
        java.nio.file.Path sticky = Files.createDirectories(dir.resolve("shared"));
        assertEquals(0, new ProcessBuilder("chmod", "1777", sticky.toString()).inheritIO().start().waitFor());
        Path root = new Path(dir.toUri());

        for (java.nio.file.Path file : List.of(data, sub, sticky, dir)) {
            Path path = new Path(file.toUri());
            assertSame(hadoop.getFileStatus(path), posix.getFileStatus(path));
        }
        assertTrue(posix.getFileStatus(new Path(sticky.toUri())).getPermission().getStickyBit());
        assertSameAll(hadoop.listStatus(root), posix.listStatus(root));
        assertSameAll(hadoop.listStatus(new Path(data.toUri())), posix.listStatus(new Path(data.toUri())));
        assertSameAll(located(hadoop, root), located(posix, root));
        assertThrows(FileNotFoundException.class, () -> posix.getFileStatus(new Path(root, "missing")));
    }

    @Test
    void permissionsAreSetAsHadoopSetsThem() throws Exception {
        Path root = new Path(dir.toUri());
        Path ours = new Path(root, "ours");
        Path theirs = new Path(root, "theirs");
        assertTrue(posix.mkdirs(ours, new FsPermission((short) 0733)));
        assertTrue(hadoop.mkdirs(theirs, new FsPermission((short) 0733)));
        assertEquals(hadoop.getFileStatus(theirs).getPermission(), hadoop.getFileStatus(ours).getPermission());
        Path file = new Path(ours, "file");
        posix.create(file).close();
        for (short mode : new short[] {0600, 0755, 0640, 0733, 01777}) {
            posix.setPermission(file, new FsPermission(mode));
            assertEquals(new FsPermission(mode), hadoop.getFileStatus(file).getPermission(), Integer.toOctalString(mode));
        }
        assertThrows(FileNotFoundException.class, () -> posix.setPermission(new Path(root, "missing"),
                new FsPermission((short) 0644)));
    }

    /** A group-shared directory (setgid) keeps its setgid bit through a chmod, as under Hadoop's chmod 0750. */
    @Test
    void aDirectoryKeepsItsSetGroupIdBit() throws Exception {
        java.nio.file.Path ours = Files.createDirectories(dir.resolve("ours"));
        java.nio.file.Path theirs = Files.createDirectories(dir.resolve("theirs"));
        for (java.nio.file.Path shared : List.of(ours, theirs)) {
            assertEquals(0, new ProcessBuilder("chmod", "2775", shared.toString()).inheritIO().start().waitFor());
        }
        posix.setPermission(new Path(ours.toUri()), new FsPermission((short) 0750));
        hadoop.setPermission(new Path(theirs.toUri()), new FsPermission((short) 0750));
        int mode = (Integer) Files.getAttribute(ours, "unix:mode") & 07777;
        assertEquals((Integer) Files.getAttribute(theirs, "unix:mode") & 07777, mode);
        assertEquals(02750, mode);
    }

    private static void assertSame(FileStatus expected, FileStatus actual) {
        assertEquals(expected.getPath(), actual.getPath());
        assertEquals(expected.getLen(), actual.getLen(), expected.getPath().toString());
        assertEquals(expected.isDirectory(), actual.isDirectory(), expected.getPath().toString());
        assertEquals(expected.getModificationTime(), actual.getModificationTime(), expected.getPath().toString());
        assertEquals(expected.getBlockSize(), actual.getBlockSize(), expected.getPath().toString());
        assertEquals(expected.getPermission(), actual.getPermission(), expected.getPath().toString());
        assertEquals(expected.getOwner(), actual.getOwner(), expected.getPath().toString());
        assertEquals(expected.getGroup(), actual.getGroup(), expected.getPath().toString());
    }

    private static void assertSameAll(FileStatus[] expected, FileStatus[] actual) {
        Comparator<FileStatus> byPath = Comparator.comparing(status -> status.getPath().toString());
        List<FileStatus> hadoops = new ArrayList<>(Arrays.asList(expected));
        List<FileStatus> ours = new ArrayList<>(Arrays.asList(actual));
        hadoops.sort(byPath);
        ours.sort(byPath);
        assertEquals(hadoops.size(), ours.size());
        for (int i = 0; i < hadoops.size(); i++) {
            assertSame(hadoops.get(i), ours.get(i));
        }
    }

    private static FileStatus[] located(FileSystem fs, Path path) throws Exception {
        List<FileStatus> statuses = new ArrayList<>();
        RemoteIterator<LocatedFileStatus> files = fs.listLocatedStatus(path);
        while (files.hasNext()) {
            statuses.add(files.next());
        }
        return statuses.toArray(FileStatus[]::new);
    }
}
