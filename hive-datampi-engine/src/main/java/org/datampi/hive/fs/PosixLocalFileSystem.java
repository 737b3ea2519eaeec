package org.datampi.hive.fs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsAction;
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
            if (NativeIO.isAvailable() || permission.getStickyBit()) {
                // Java's POSIX permissions have no sticky bit.
                super.setPermission(path, permission);
                return;
            }
            Set<PosixFilePermission> bits = EnumSet.noneOf(PosixFilePermission.class);
            add(bits, permission.getUserAction(), PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                    PosixFilePermission.OWNER_EXECUTE);
            add(bits, permission.getGroupAction(), PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
                    PosixFilePermission.GROUP_EXECUTE);
            add(bits, permission.getOtherAction(), PosixFilePermission.OTHERS_READ,
                    PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);
            try {
                Files.setPosixFilePermissions(pathToFile(path).toPath(), bits);
            } catch (NoSuchFileException e) {
                throw new FileNotFoundException("File " + path + " does not exist");
            } catch (UnsupportedOperationException e) {
                super.setPermission(path, permission);
            }
        }

        private static void add(Set<PosixFilePermission> bits, FsAction action, PosixFilePermission read,
                PosixFilePermission write, PosixFilePermission execute) {
            if (action.implies(FsAction.READ)) {
                bits.add(read);
            }
            if (action.implies(FsAction.WRITE)) {
                bits.add(write);
            }
            if (action.implies(FsAction.EXECUTE)) {
                bits.add(execute);
            }
        }

        private FileStatus withPosixAttributes(FileStatus status) throws IOException {
            if (status instanceof PosixFileStatus || status.isSymlink()) {
                return status;
            }
            Map<String, Object> attributes;
            try {
                attributes = Files.readAttributes(pathToFile(status.getPath()).toPath(), "unix:mode,owner,group");
            } catch (NoSuchFileException e) {
                throw new FileNotFoundException("File " + status.getPath() + " does not exist");
            } catch (UnsupportedOperationException | IllegalArgumentException e) {
                return status;
            }
            return new PosixFileStatus(status, (Integer) attributes.get("mode"),
                    ((UserPrincipal) attributes.get("owner")).getName(),
                    ((GroupPrincipal) attributes.get("group")).getName());
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
