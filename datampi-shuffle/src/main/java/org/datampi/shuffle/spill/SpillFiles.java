package org.datampi.shuffle.spill;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.apache.hadoop.fs.FileUtil;
import org.datampi.shuffle.merge.FileRunCursor;
import org.datampi.shuffle.merge.RunCursor;
import org.datampi.shuffle.pairs.PairFormat;

/**
 * This process's spill directory: sorted runs written to local disk when received data outgrows its memory share.
 * The directory belongs to one rank of one job and is removed as a whole when the rank ends, even on failure. A run is
 * a new file (CREATE_NEW): a file or link already at its name is an error, never written through. It counts the runs
 * open for reading, so that the cap on them (mpid.merge.factor) can be checked. Thread-safe: {@link #close} may come
 * from another thread (a shutdown hook on SIGTERM) while a spill thread writes; a run is only ever created before the
 * close takes its lock, so the delete that follows finds every file there is and nothing makes the directory again.
 */
public final class SpillFiles implements AutoCloseable {
    private static final int WRITE_BUFFER_BYTES = 256 * 1024;

    private final Path directory;
    private final AtomicInteger sequence = new AtomicInteger();
    /** Creating a run (read lock, shared by writers) and closing the directory (write lock) exclude each other. */
    private final ReadWriteLock closing = new ReentrantReadWriteLock();
    private boolean closed;
    private int openReaders;
    private int mostOpenReaders;

    public SpillFiles(Path directory) {
        this.directory = requireNonNull(directory, "directory is null");
    }

    public Path directory() {
        return directory;
    }

    /** Writes the whole cursor as one sorted run for a partition; returns the run. */
    public SpilledRun write(int partition, RunCursor sortedPairs) {
        try {
            Path file = directory.resolve("partition-" + partition + "-run-" + sequence.getAndIncrement() + ".spill");
            long pairs = 0;
            long bytes = 0;
            // Pairs are encoded into one array and written in large pieces: a stream per pair (DataOutputStream's
            // synchronized calls, a call per vint byte) cost the spill thread twice its disk time.
            byte[] buffer = new byte[WRITE_BUFFER_BYTES];
            int filled = 0;
            try (OutputStream out = create(file)) {
                while (sortedPairs.next()) {
                    int size = PairFormat.serializedLength(sortedPairs.keyLength(), sortedPairs.valueLength());
                    if (size > buffer.length - filled) {
                        out.write(buffer, 0, filled);
                        bytes += filled;
                        filled = 0;
                        if (size > buffer.length) {
                            buffer = new byte[size];
                        }
                    }
                    filled = PairFormat.write(buffer, filled, sortedPairs.keyBuffer(), sortedPairs.keyOffset(),
                            sortedPairs.keyLength(), sortedPairs.valueBuffer(), sortedPairs.valueOffset(),
                            sortedPairs.valueLength());
                    pairs++;
                }
                out.write(buffer, 0, filled);
                bytes += filled;
            }
            return new SpilledRun(file, bytes, pairs);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot spill partition " + partition + " to " + directory, e);
        }
    }

    /**
     * A new run's file, unless the directory is closed. A run created before the close is deleted with the directory
     * (its writer goes on writing to the unlinked file until it ends).
     */
    private OutputStream create(Path file) throws IOException {
        closing.readLock().lock();
        try {
            if (closed) {
                // Never made again once removed: it would lose the owner's mode and lock (RankDirectory).
                throw new IllegalStateException("Spill directory " + directory + " is closed");
            }
            Files.createDirectories(directory);
            return Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } finally {
            closing.readLock().unlock();
        }
    }

    /** A cursor over a run of this directory, counted as open until it is closed. */
    public RunCursor open(SpilledRun run) {
        synchronized (this) {
            openReaders++;
            mostOpenReaders = Math.max(mostOpenReaders, openReaders);
        }
        try {
            return new FileRunCursor(run.file(), this::readerClosed);
        } catch (RuntimeException e) {
            readerClosed();
            throw e;
        }
    }

    private synchronized void readerClosed() {
        openReaders--;
    }

    /** The most runs that were open for reading at once. */
    public synchronized int mostOpenAtOnce() {
        return mostOpenReaders;
    }

    /** Deletes the directory and everything in it. */
    @Override
    public void close() {
        closing.writeLock().lock();
        try {
            closed = true;
        } finally {
            closing.writeLock().unlock();
        }
        if (Files.exists(directory) && !FileUtil.fullyDelete(directory.toFile())) {
            throw new UncheckedIOException(new IOException("Cannot delete spill directory " + directory));
        }
    }
}
