package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Comparator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rank's local directory for one job, {@code <local dir>/datampi-<user>/datampi-<job id>/rank-<N>} (spills, job
 * files), private to the user: the user's directory is created 0700 (one that exists must be a directory of the
 * user's, not a link, and is closed to others again: another user could otherwise read spilled rows or plant links
 * where a rank writes), the job's and rank's directories 0700 in it. It is marked as
 * in use by a lock on its {@value #OWNER} file that the rank holds while it runs. The kernel releases the lock when
 * the process ends, however it ends, so a rank process starting can tell the directories of ranks that were killed
 * (kill -9, a lost session) from those of ranks that still run, and removes the first, as a NodeManager's deletion
 * service removes a dead container's directories. A rank that ends normally removes its own directory. mpidrun runs
 * {@link #main} on every host after a failed job: {@code RankDirectory LOCAL_DIR}.
 */
public final class RankDirectory implements AutoCloseable {
    static final String OWNER = ".owner";
    private static final String CLAIMING = ".claiming";
    private static final String JOB_PREFIX = "datampi-";
    private static final Logger LOG = LoggerFactory.getLogger(RankDirectory.class);
    /**
     * The owner files this process holds. Locks belong to the process, not to a channel, so this is what a process
     * knows of its own: process-wide by nature.
     */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();
    private static final FileAttribute<Set<PosixFilePermission>> PRIVATE = PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rwx------"));

    private final Path path;
    private final FileChannel owner;

    private RankDirectory(Path path, FileChannel owner) {
        this.path = requireNonNull(path, "path is null");
        this.owner = requireNonNull(owner, "owner is null");
    }

    /**
     * Creates the rank's directory under LOCAL_ROOT and locks it as in use. The owner file is locked under another
     * name, {@code .owner-<pid>.claiming}, and then renamed, so that a sweeping rank never finds it unlocked; a rank
     * killed before the rename leaves that name, which tells the sweep whose directory it was.
     */
    static RankDirectory claim(Path localRoot, String jobId, int rank) {
        Path path = userRoot(localRoot).resolve(JOB_PREFIX + jobId).resolve("rank-" + rank);
        try {
            createDirectories(path);
            Path claiming = path.resolve(claimingName(ProcessHandle.current().pid()));
            FileChannel channel = FileChannel.open(claiming, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            channel.lock();
            Path owner = path.resolve(OWNER);
            HELD.add(owner);
            Files.move(claiming, owner, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return new RankDirectory(path, channel);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the rank's local directory " + path + " (mpid.local.dir)", e);
        }
    }

    /**
     * This user's directory under LOCAL_ROOT, {@code datampi-<user>}: created 0700, or checked to be a directory (not
     * a link) of this user's, then closed to everyone else; anything else is refused, naming it.
     */
    /** Where the user's rank directories are under LOCAL_ROOT (nothing made or checked). */
    private static Path userRootPath(Path localRoot) {
        return localRoot.resolve(JOB_PREFIX + System.getProperty("user.name"));
    }

    static Path userRoot(Path localRoot) {
        String user = System.getProperty("user.name");
        Path root = userRootPath(localRoot);
        try {
            Files.createDirectories(localRoot);
            try {
                Files.createDirectory(root, PRIVATE);
            } catch (FileAlreadyExistsException e) {
                // Checked below.
            }
            PosixFileAttributes attributes = Files.readAttributes(root, PosixFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            UserPrincipal me = root.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(user);
            if (!attributes.isDirectory() || !attributes.owner().equals(me)) {
                throw new IOException("it is not a directory of user " + user + " (a link, a file, or another "
                        + "user's: owner " + attributes.owner().getName() + ")");
            }
            if (!attributes.permissions().equals(PRIVATE.value())) {
                // The user's own directory, opened up by the user: closed again before anything goes in.
                LOG.warn("{} had permissions {}; set to rwx------", root,
                        PosixFilePermissions.toString(attributes.permissions()));
                Files.setPosixFilePermissions(root, PRIVATE.value());
            }
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot use " + root + " for the ranks' local files (mpid.local.dir): "
                    + e.getMessage(), e);
        }
    }

    /** Another rank's sweep may remove the job's directory between our two mkdirs while it is still empty. */
    private static void createDirectories(Path path) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                Files.createDirectories(path, PRIVATE);
                return;
            } catch (NoSuchFileException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    Path path() {
        return path;
    }

    /** Sweeps the local directory given (mpid.local.dir) and says what it removed. */
    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("Usage: RankDirectory LOCAL_DIR");
            System.exit(2);
        }
        System.out.println("datampi: " + ThisHost.NAME + ": removed " + sweep(Path.of(args[0]))
                + " directories of gone ranks in " + args[0]);
    }

    /** Releases the directory (its files are the caller's to remove). */
    @Override
    public void close() {
        HELD.remove(path.resolve(OWNER));
        try {
            owner.close();
        } catch (IOException e) {
            LOG.debug("Closing {}", path.resolve(OWNER), e);
        }
    }

    static String claimingName(long pid) {
        return OWNER + "-" + pid + CLAIMING;
    }

    /**
     * Removes the rank directories under this user's directory in LOCAL_ROOT whose owner is gone (its lock is free,
     * or it was killed while claiming: its claiming file's process is gone), and then their job directories when
     * empty; returns how many rank directories it removed. Directories without an owner file (being created, or not a
     * rank's) are left alone.
     */
    static int sweep(Path localRoot) {
        int removed = 0;
        if (!Files.exists(userRootPath(localRoot), LinkOption.NOFOLLOW_LINKS)) {
            // No rank of this user ever ran here, or its directory is gone: nothing to sweep, and nothing to make (a
            // sweep that ran late would put back a directory that its owner, a test's cleanup, had just removed).
            return 0;
        }
        try (DirectoryStream<Path> jobs = Files.newDirectoryStream(userRoot(localRoot), JOB_PREFIX + "*")) {
            for (Path job : jobs) {
                removed += sweepJob(job);
            }
        } catch (IOException | RuntimeException e) {
            // Never fails a rank: what is left now goes with a later sweep.
            LOG.warn("Cannot look for directories of gone ranks in {}", localRoot, e);
        }
        return removed;
    }

    private static int sweepJob(Path job) {
        int removed = 0;
        try (DirectoryStream<Path> ranks = Files.newDirectoryStream(job, "rank-*")) {
            for (Path rank : ranks) {
                if (ownerIsGone(rank.resolve(OWNER)) || claimerIsGone(rank)) {
                    deleteTree(rank);
                    removed++;
                    LOG.info("Removed {}: its rank is gone", rank);
                }
            }
            Files.deleteIfExists(job);
        } catch (IOException | UncheckedIOException e) {
            // Not a directory, not empty (a rank's directory in use), or removed by another rank's sweep meanwhile.
            LOG.debug("Sweeping {}", job, e);
        }
        return removed;
    }

    /**
     * Whether the directory has no owner file but the claiming file of a process that is gone: the rank was killed
     * between creating its directory and renaming its locked claiming file (the sweep runs on the rank's own host,
     * whose process ids these are).
     */
    private static boolean claimerIsGone(Path rank) throws IOException {
        if (Files.exists(rank.resolve(OWNER), LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (DirectoryStream<Path> claiming = Files.newDirectoryStream(rank, OWNER + "-*" + CLAIMING)) {
            for (Path file : claiming) {
                String name = file.getFileName().toString();
                String pid = name.substring(OWNER.length() + 1, name.length() - CLAIMING.length());
                if (!pid.matches("[0-9]{1,18}")) {
                    continue;
                }
                if (ProcessHandle.of(Long.parseLong(pid)).filter(ProcessHandle::isAlive).isEmpty()) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean ownerIsGone(Path ownerFile) {
        // Probing a lock this process holds would release it (POSIX locks belong to the process, and closing any
        // channel to the file drops them all).
        if (HELD.contains(ownerFile) || !Files.isRegularFile(ownerFile)) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(ownerFile, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                return false;
            }
            lock.release();
            return true;
        } catch (IOException | OverlappingFileLockException e) {
            return false;
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (NoSuchFileException e) {
            // Another rank of this host removed it first.
        }
    }
}
