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
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rank's local directory for one job, {@code <local dir>/datampi-<job id>/rank-<N>} (spills, job files), marked as
 * in use by a lock on its {@value #OWNER} file that the rank holds while it runs. The kernel releases the lock when
 * the process ends, however it ends, so a rank starting a job can tell the directories of ranks that were killed
 * (kill -9, a lost session) from those of ranks that still run, and removes the first, as a NodeManager's deletion
 * service removes a dead container's directories. A rank that ends normally removes its own directory. mpidrun runs
 * {@link #main} on every host after a failed job: {@code RankDirectory LOCAL_DIR}.
 */
public final class RankDirectory implements AutoCloseable {
    static final String OWNER = ".owner";
    private static final String JOB_PREFIX = "datampi-";
    private static final Logger LOG = LoggerFactory.getLogger(RankDirectory.class);

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
            Files.createDirectories(path);
            Path claiming = Files.createTempFile(path, OWNER, ".claiming");
            FileChannel channel = FileChannel.open(claiming, StandardOpenOption.WRITE);
            channel.lock();
            Files.move(claiming, path.resolve(OWNER), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
            return new RankDirectory(path, channel);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the rank's local directory " + path + " (mpid.local.dir)", e);
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
                if (!Files.isDirectory(job)) {
                    continue;
                }
                try (DirectoryStream<Path> ranks = Files.newDirectoryStream(job, "rank-*")) {
                    for (Path rank : ranks) {
                        if (ownerIsGone(rank.resolve(OWNER))) {
                            deleteTree(rank);
                            removed++;
                            LOG.info("Removed {}: its rank is gone", rank);
                        }
                    }
                }
                try {
                    Files.deleteIfExists(job);
                } catch (IOException e) {
                    // Not empty: another rank's directory is in use.
                }
            }
        } catch (NoSuchFileException e) {
            return removed;
        } catch (IOException e) {
            LOG.warn("Cannot look for directories of gone ranks in {}", localRoot, e);
        }
        return removed;
    }

    private static boolean ownerIsGone(Path ownerFile) {
        if (!Files.isRegularFile(ownerFile)) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(ownerFile, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                return false;
            }
            lock.release();
            return true;
        } catch (OverlappingFileLockException e) {
            return false; // This process holds it: a rank of this JVM's.
        } catch (IOException e) {
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
