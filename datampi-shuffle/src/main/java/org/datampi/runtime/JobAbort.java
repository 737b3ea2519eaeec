package org.datampi.runtime;

import java.util.concurrent.atomic.AtomicBoolean;

import org.datampi.transport.Mpi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the whole job on the first error of any thread of this rank: the error (rank, host, task, message) and the
 * tail of the rank's log go to stderr ({@link RankFailureLines}), the error to the rank's log, this rank's spill
 * files are removed, and MPI_Abort makes the launcher stop every other rank.
 */
final class JobAbort {
    private static final Logger LOG = LoggerFactory.getLogger(JobAbort.class);
    private static final AtomicBoolean ABORTING = new AtomicBoolean();
    private static final int TAIL_LINES = 8;

    private JobAbort() {
    }

    static void abort(int rank, Throwable cause, Runnable cleanup) {
        if (!ABORTING.compareAndSet(false, true)) {
            return;
        }
        // Whatever fails while reporting or cleaning up (an OutOfMemoryError again, a closed stream), the other ranks
        // must not wait: MPI_Abort is unconditional.
        try {
            try {
                report(rank, cause);
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

    private static void report(int rank, Throwable cause) {
        Throwable root = cause instanceof TaskFailedException && cause.getCause() != null ? cause.getCause() : cause;
        String where = cause instanceof TaskFailedException ? cause.getMessage().replaceFirst("(?s) failed: .*", "")
                : cause instanceof RankLostException ? RankFailureLines.RANK_LOST : "runtime";
        Throwable innermost = root;
        while (innermost.getCause() != null && innermost.getCause() != innermost) {
            innermost = innermost.getCause();
        }
        // Frameworks wrap the real cause (Hive: "Hive Runtime Error while processing row"); name both.
        // On one line: messages may span several (Hive's name the split's paths on lines of their own), and the
        // launcher's reader takes the first line as the failure.
        System.err.println(oneLine(RankFailureLines.failed(rank, ThisHost.NAME, where,
                root + (innermost == root ? "" : " (caused by " + innermost + ")"))));
        // What the rank logged before the failure (its log is on its own host): the tail is read before the failure
        // is logged, so that it shows what led up to it rather than the stack trace printed just above.
        RankLog.current().ifPresent(log -> {
            System.err.println(RankFailureLines.logHeader(rank, ThisHost.NAME, log.path().toString()));
            log.tail(TAIL_LINES).forEach(line -> System.err.println(RankFailureLines.logLine(rank, line)));
        });
        root.printStackTrace(System.err);
        System.err.flush();
        LOG.error("Job failed on rank {} ({}), {}", rank, ThisHost.NAME, where, root);
    }

    static String oneLine(String text) {
        return text.replaceAll("\\s*\\R\\s*", " ");
    }
}
