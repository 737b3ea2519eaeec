package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import org.datampi.status.RankStatus.RankFailed;
import org.datampi.status.StatusSender;
import org.datampi.transport.Mpi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the whole job on the first error of any thread of this rank: the error (rank, host, task, message) and the
 * tail of the rank's log go to the job runner ({@link RankFailed} on the status channel) and to stderr, the error to
 * the rank's log, this rank's spill files are removed, and MPI_Abort makes the launcher stop every other rank.
 *
 * <p>One per rank process; thread-safe: the first caller reports and aborts, later ones return at once.
 */
final class JobAbort implements JobFailure {
    private static final Logger LOG = LoggerFactory.getLogger(JobAbort.class);
    private static final int TAIL_LINES = 8;

    private final int rank;
    private final StatusSender status;
    private final AtomicBoolean aborting = new AtomicBoolean();

    JobAbort(int rank, StatusSender status) {
        this.rank = rank;
        this.status = requireNonNull(status, "status is null");
    }

    @Override
    public void abort(Throwable cause, Runnable cleanup) {
        if (!aborting.compareAndSet(false, true)) {
            return;
        }
        // Whatever fails while reporting or cleaning up (an OutOfMemoryError again, a closed stream, a job runner
        // that cannot be reached), the other ranks must not wait: MPI_Abort is unconditional.
        try {
            try {
                report(cause);
            } catch (Throwable e) {
                LOG.warn("Reporting the failure failed", e);
            }
            try {
                cleanup.run();
            } catch (Throwable e) {
                LOG.warn("Cleanup after the failure failed", e);
            }
        } finally {
            Mpi.abort(1);
        }
    }

    private void report(Throwable cause) {
        Throwable root = cause instanceof TaskFailedException && cause.getCause() != null ? cause.getCause() : cause;
        String where = cause instanceof TaskFailedException ? cause.getMessage().replaceFirst("(?s) failed: .*", "")
                : cause instanceof RankLostException ? RankFailed.RANK_LOST : "runtime";
        Throwable innermost = root;
        while (innermost.getCause() != null && innermost.getCause() != innermost) {
            innermost = innermost.getCause();
        }
        // What the rank logged before the failure (its log is on its own host): the tail is read before the failure
        // is logged, so that it shows what led up to it rather than the stack trace printed below.
        Optional<RankLog> log = RankLog.current();
        // Frameworks wrap the real cause (Hive: "Hive Runtime Error while processing row"); name both.
        RankFailed failed = new RankFailed(rank, ThisHost.NAME, where,
                root + (innermost == root ? "" : " (caused by " + innermost + ")"),
                cause instanceof RankLostException, log.map(rankLog -> rankLog.path().toString()),
                log.map(rankLog -> rankLog.tail(TAIL_LINES)).orElse(List.of()));
        failed.consoleLines().forEach(System.err::println);
        System.err.flush();
        try {
            status.send(failed);
        } catch (UncheckedIOException e) {
            LOG.warn("Cannot report the failure to the job runner", e);
        } finally {
            // Ends the connection before MPI_Abort: the job runner reads the report to its end.
            status.close();
        }
        root.printStackTrace(System.err);
        System.err.flush();
        LOG.error("Job failed on rank {} ({}), {}", rank, ThisHost.NAME, where, root);
    }
}
