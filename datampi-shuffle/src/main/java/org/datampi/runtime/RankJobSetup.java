package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.datampi.mpid.JobSetup;
import org.datampi.transport.Mpi;
import org.datampi.transport.Request;

/**
 * A rank's {@link JobSetup}: streams are broadcast from rank 0 in chunks of {@value #CHUNK_BYTES} bytes, each
 * preceded by a broadcast of its length (-1 ends the stream), so that a file of any size passes through one bounded
 * buffer. Runs on the rank's main thread while the job's shuffle engine runs beside it; the waits poll MPI_Test and,
 * as the shuffle's own waits do, the job's health, so that a lost rank ends them.
 */
final class RankJobSetup implements JobSetup {
    static final int CHUNK_BYTES = 4 << 20;
    private static final int ROOT = 0;
    private static final long POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final long HEALTH_CHECK_POLLS = 1000;

    private final int rank;
    private final int size;
    private final String host;
    private final Path localDir;
    private final Optional<? extends TaskScheduler> scheduler;
    private final Runnable healthCheck;
    private final ByteBuffer header = ByteBuffer.allocateDirect(Long.BYTES);
    private ByteBuffer chunk;
    private byte[] copy;

    RankJobSetup(int rank, int size, String host, Path localDir, Optional<? extends TaskScheduler> scheduler,
            Runnable healthCheck) {
        this.rank = rank;
        this.size = size;
        this.host = requireNonNull(host, "host is null");
        this.localDir = requireNonNull(localDir, "localDir is null");
        this.scheduler = requireNonNull(scheduler, "scheduler is null");
        this.healthCheck = requireNonNull(healthCheck, "healthCheck is null");
    }

    @Override
    public String host() {
        return host;
    }

    @Override
    public void preferHosts(int oTask, Collection<String> hosts) {
        requireNonNull(hosts, "hosts is null");
        scheduler.ifPresent(tasks -> {
            if (tasks instanceof StageScheduler) {
                throw new IllegalStateException("A staged job names the stage of a task it prefers hosts for");
            }
            tasks.prefer(TaskScheduler.O_STAGE, oTask, hosts);
        });
    }

    @Override
    public void planStage(int stage, int tasks, boolean handedOut) {
        scheduler.ifPresent(planned -> stages(planned).plan(stage, tasks, handedOut));
    }

    @Override
    public void deferStage(int stage) {
        scheduler.ifPresent(planned -> stages(planned).defer(stage));
    }

    @Override
    public void preferHosts(int stage, int task, Collection<String> hosts) {
        requireNonNull(hosts, "hosts is null");
        scheduler.ifPresent(tasks -> stages(tasks).prefer(stage, task, hosts));
    }

    static StageScheduler stages(TaskScheduler scheduler) {
        if (scheduler instanceof StageScheduler stages) {
            return stages;
        }
        throw new IllegalStateException("Only a staged job (a StagedProgram) plans stages");
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Path localDir() {
        return localDir;
    }

    @Override
    public long broadcast(InputStream fromRoot, OutputStream to) throws IOException {
        requireNonNull(to, "to is null");
        if (rank == ROOT) {
            requireNonNull(fromRoot, "fromRoot is null on rank 0");
        }
        if (chunk == null) {
            chunk = ByteBuffer.allocateDirect(CHUNK_BYTES);
            copy = new byte[CHUNK_BYTES];
        }
        long total = 0;
        while (true) {
            int length = rank == ROOT ? fromRoot.readNBytes(copy, 0, CHUNK_BYTES) : 0;
            header.clear();
            header.putLong(0, rank == ROOT ? (length == 0 ? -1 : length) : 0);
            awaitBroadcast(header);
            long announced = header.getLong(0);
            if (announced < 0) {
                return total;
            }
            chunk.clear().limit((int) announced);
            if (rank == ROOT) {
                chunk.put(copy, 0, length).flip();
            }
            awaitBroadcast(chunk);
            if (rank != ROOT) {
                chunk.get(0, copy, 0, (int) announced);
            }
            to.write(copy, 0, (int) announced);
            total += announced;
        }
    }

    /** Waits for the broadcast, checking the job's health (a lost rank, a failed engine) between tests. */
    private void awaitBroadcast(ByteBuffer buffer) {
        Request request = Mpi.ibcast(buffer.position(0), ROOT);
        long polls = 0;
        while (!Mpi.test(request)) {
            LockSupport.parkNanos(POLL_NANOS);
            if (++polls % HEALTH_CHECK_POLLS == 0) {
                healthCheck.run();
            }
        }
    }
}
