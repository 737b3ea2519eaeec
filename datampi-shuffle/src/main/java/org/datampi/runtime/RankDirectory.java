package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rank's local directory for one job, {@code <local dir>/datampi-<job id>/rank-<N>} (spills, job files), marked as
 * in use by a lock on its {@value #OWNER} file that the rank holds while it runs. The kernel releases the lock when
 * the process ends, however it ends, so a rank process starting can tell the directories of ranks that were killed
 * (kill -9, a lost session) from those of ranks that still run, and removes the first, as a NodeManager's deletion
 * service removes a dead container's directories. A rank that ends normally removes its own directory. mpidrun runs
 * {@link #main} on every host after a failed job: {@code RankDirectory LOCAL_DIR}.
 */
public final class RankDirectory implements AutoCloseable {
    static final String OWNER = ".owner";
    private static final String JOB_PREFIX = "datampi-";
    private static final Logger LOG = LoggerFactory.getLogger(RankDirectory.class);
    /**
     * The owner files this process holds. Locks belong to the process, not to a channel, so this is what a process
     * knows of its own: process-wide by nature.
     */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private final Path path;
    private final FileChannel owner;

    private RankDirectory(Path path, FileChannel owner) {
        this.path = requireNonNull(path, "path is null");
        this.owner = requireNonNull(owner, "owner is null");
    }

    /**
     * Creates the rank's directory under LOCAL_ROOT and locks it as in use. The owner file is locked under another
     * name and then renamed, so that a sweeping rank never finds it unlocked.
     */
    static RankDirectory claim(Path localRoot, String jobId, int rank) {
        Path path = localRoot.resolve(JOB_PREFIX + jobId).resolve("rank-" + rank);
        try {
            createDirectories(path);
            Path claiming = Files.createTempFile(path, OWNER, ".claiming");
            FileChannel channel = FileChannel.open(claiming, StandardOpenOption.WRITE);
            channel.lock();
            Path owner = path.resolve(OWNER);
            HELD.add(owner);
            Files.move(claiming, owner, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return new RankDirectory(path, channel);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the rank's local directory " + path + " (mpid.local.dir)", e);
        }
    }

    /** Another rank's sweep may remove the job's directory between our two mkdirs while it is still empty. */
    private static void createDirectories(Path path) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                Files.createDirectories(path);
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

    /**
     * Removes the rank directories under LOCAL_ROOT whose owner is gone (its lock is free), and then their job
     * directories when empty; returns how many rank directories it removed. Directories without an owner file (being
     * created, or not a rank's) are left alone.
     */
    static int sweep(Path localRoot) {
        int removed = 0;
        try (DirectoryStream<Path> jobs = Files.newDirectoryStream(localRoot, JOB_PREFIX + "*")) {
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
                if (ownerIsGone(rank.resolve(OWNER))) {
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
