package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.datampi.shuffle.engine.MessageTag;
import org.datampi.status.RankStatus;
import org.datampi.status.StatusSender;
import org.datampi.transport.Mpi;
import org.datampi.transport.ProbeStatus;
import org.datampi.transport.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jobs of a serving process group ({@code CommonProcess --serve [--idle-seconds N]}), run one after the other.
 * Rank 0 reads them from its standard input, which mpirun forwards from the launcher's: one job per line, the
 * arguments of a one-job CommonProcess separated by tabs ({@code --job-id ID -O ONUM -A ANUM CLASS [ARGS...]}).
 * It passes each job to the other ranks and, once every rank is through it, tells the job runner
 * ({@link RankStatus.JobDone}) and prints {@code datampi: job ID done} on stderr. The end of the input, an empty
 * line or no job for the idle time ends the group. A failing job still ends the whole group (MPI_Abort): the next
 * job starts a new one.
 */
final class JobQueue {
    static final String SERVE_OPTION = "--serve";
    private static final String IDLE_OPTION = "--idle-seconds";
    private static final int DEFAULT_IDLE_SECONDS = 600;
    private static final long IDLE_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final String END = "";
    private static final Logger LOG = LoggerFactory.getLogger(JobQueue.class);

    private final int rank;
    private final int size;
    private final int idleSeconds;
    private final JobAbort abort;
    private final StatusSender status;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    JobQueue(int rank, int size, int idleSeconds, JobAbort abort, StatusSender status) {
        this.rank = rank;
        this.size = size;
        this.idleSeconds = idleSeconds;
        this.abort = requireNonNull(abort, "abort is null");
        this.status = requireNonNull(status, "status is null");
        if (rank == 0) {
            Thread reader = new Thread(this::readInput, "datampi-job-input");
            reader.setDaemon(true);
            reader.start();
        }
    }

    /** {@code --serve [--idle-seconds N]}. */
    static int idleSeconds(String[] args) {
        if (args.length == 1) {
            return DEFAULT_IDLE_SECONDS;
        }
        if (args.length == 3 && args[1].equals(IDLE_OPTION)) {
            try {
                int seconds = Integer.parseInt(args[2]);
                if (seconds >= 1) {
                    return seconds;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException("Invalid value '" + args[2] + "' for " + IDLE_OPTION
                    + ": expected seconds >= 1");
        }
        throw new IllegalArgumentException("Usage: CommonProcess " + SERVE_OPTION + " [" + IDLE_OPTION + " N]");
    }

    private void readInput() {
        try (BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            for (String line = input.readLine(); line != null; line = input.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            LOG.warn("Lost the job input", e);
        }
        lines.add(END);
    }

    /** The next job every rank runs, or empty when the group is to end. */
    Optional<LaunchArguments> next() {
        String line = rank == 0 ? nextLine() : receive();
        if (rank == 0) {
            share(line);
        }
        if (line.isEmpty()) {
            LOG.info("Rank {}: no more jobs", rank);
            return Optional.empty();
        }
        try {
            return Optional.of(LaunchArguments.parse(line.split("\t")));
        } catch (IllegalArgumentException e) {
            abort.abort(new IllegalArgumentException("Bad job line '" + line + "': " + e.getMessage()), () -> { });
            return Optional.empty();
        }
    }

    /** Called by every rank after a job, once all ranks are through it. */
    void done(LaunchArguments job) {
        if (rank == 0) {
            RankStatus.JobDone done = new RankStatus.JobDone(job.jobId());
            System.err.println(done.line());
            System.err.flush();
            try {
                status.send(done);
            } catch (RuntimeException e) {
                abort.abort(e, () -> { });
            }
        }
    }

    private String nextLine() {
        try {
            String line = lines.poll(idleSeconds, TimeUnit.SECONDS);
            if (line == null) {
                LOG.info("No job for {} s: the process group ends", idleSeconds);
                return END;
            }
            return line;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return END;
        }
    }

    private void share(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        List<Request> sends = new ArrayList<>();
        for (int dest = 1; dest < size; dest++) {
            ByteBuffer buffer = ByteBuffer.allocateDirect(Math.max(1, bytes.length));
            buffer.put(bytes).flip();
            sends.add(Mpi.isend(buffer, dest, MessageTag.NEXT_JOB));
        }
        sends.forEach(Mpi::await);
    }

    /** Waits for rank 0's next job without spinning on a core (MPI's blocking calls would). */
    private static String receive() {
        ProbeStatus status = Mpi.iprobe(0, MessageTag.NEXT_JOB);
        while (status == null) {
            LockSupport.parkNanos(IDLE_POLL_NANOS);
            status = Mpi.iprobe(0, MessageTag.NEXT_JOB);
        }
        ByteBuffer buffer = ByteBuffer.allocateDirect(Math.max(1, status.byteCount()));
        Mpi.await(Mpi.irecv(buffer, 0, MessageTag.NEXT_JOB));
        byte[] bytes = new byte[status.byteCount()];
        buffer.position(0).limit(status.byteCount());
        buffer.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
