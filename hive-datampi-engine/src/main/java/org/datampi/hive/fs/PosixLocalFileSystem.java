package org.datampi.hive.fs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.nativeio.NativeIO;

/**
 * Hadoop's local file system ({@code file://}, {@code fs.file.impl}) that reads and sets files' owners, groups and
 * permissions through Java's POSIX file attributes. Without Hadoop's native library (libhadoop, which no Maven jar
 * brings), Hadoop's own forks an {@code ls -ld} process for every file whose permission anything reads, and a
 * directory's located listing reads them all, and a {@code chmod} for every permission it sets: Hive's split
 * generator forked one per partition of TPC-DS's fact tables partitioned by day (60 of 77 stack samples of a
 * 2,003-partition scan's splits, some 5 s of them at scale 1). Everything else is Hadoop's: data, checksums, renames,
 * listings. Where a warehouse is on {@code file://}: the embedded default, and HPC sites' POSIX parallel file systems
 * (Lustre, GPFS); HDFS is untouched. A file system without the "unix" attribute view gets Hadoop's own answers.
 */
public final class PosixLocalFileSystem extends LocalFileSystem {
    public PosixLocalFileSystem() {
        super(new Raw());
    }

    /** Hadoop's raw local file system with its statuses' owners and permissions from Java's POSIX attributes. */
    static final class Raw extends RawLocalFileSystem {
        /**
         * User and group names by id, as the system has them: JVM-wide since Hadoop makes a file system per URI and
         * user, and a name never changes for the life of the JVM.
         */
        private static final Map<Integer, String> OWNERS = new ConcurrentHashMap<>();
        private static final Map<Integer, String> GROUPS = new ConcurrentHashMap<>();

        @Override
        public FileStatus getFileStatus(Path path) throws IOException {
            return withPosixAttributes(super.getFileStatus(path));
        }

        @Override
        public FileStatus[] listStatus(Path path) throws IOException {
            // A directory's entries come through getFileStatus; a file's own status does not.
            FileStatus[] statuses = super.listStatus(path);
            for (int i = 0; i < statuses.length; i++) {
                statuses[i] = withPosixAttributes(statuses[i]);
            }
            return statuses;
        }

        @Override
        public void setPermission(Path path, FsPermission permission) throws IOException {
            if (NativeIO.isAvailable()) {
                super.setPermission(path, permission);
                return;
            }
            java.nio.file.Path file = pathToFile(path).toPath();
            try {
                // As Hadoop's chmod of four octal digits: a directory keeps its set-user-ID and set-group-ID bits
                // (a group-shared project directory's setgid, which new partitions inherit).
                int mode = (Integer) Files.getAttribute(file, "unix:mode");
                int kept = Files.isDirectory(file) ? mode & 06000 : 0;
                Files.setAttribute(file, "unix:mode", kept | (permission.toShort() & 01777));
            } catch (NoSuchFileException e) {
                throw new FileNotFoundException("File " + path + " does not exist");
            } catch (UnsupportedOperationException | IllegalArgumentException e) {
                super.setPermission(path, permission);
            }
        }

        private FileStatus withPosixAttributes(FileStatus status) throws IOException {
            if (status instanceof PosixFileStatus || status.isSymlink()) {
                return status;
            }
            java.nio.file.Path file = pathToFile(status.getPath()).toPath();
            Map<String, Object> attributes;
            try {
                attributes = Files.readAttributes(file, "unix:mode,uid,gid");
            } catch (NoSuchFileException e) {
                throw new FileNotFoundException("File " + status.getPath() + " does not exist");
            } catch (UnsupportedOperationException | IllegalArgumentException e) {
                return status;
            }
            int uid = (Integer) attributes.get("uid");
            int gid = (Integer) attributes.get("gid");
            String owner = OWNERS.get(uid);
            String group = GROUPS.get(gid);
            if (owner == null || group == null) {
                // Names are looked up (the passwd and group databases, LDAP on some clusters) once per id.
                Map<String, Object> names = Files.readAttributes(file, "unix:owner,group");
                owner = ((UserPrincipal) names.get("owner")).getName();
                group = ((GroupPrincipal) names.get("group")).getName();
                OWNERS.putIfAbsent(uid, owner);
                GROUPS.putIfAbsent(gid, group);
            }
            return new PosixFileStatus(status, (Integer) attributes.get("mode"), owner, group);
        }
    }

    /** A status whose owner, group and permission (with the sticky bit) came from the file's POSIX attributes. */
    private static final class PosixFileStatus extends FileStatus {
        PosixFileStatus(FileStatus status, int mode, String owner, String group) {
            super(status.getLen(), status.isDirectory(), status.getReplication(), status.getBlockSize(),
                    status.getModificationTime(), status.getAccessTime(), new FsPermission((short) (mode & 01777)),
                    owner, group, status.getPath());
        }
    }
}
