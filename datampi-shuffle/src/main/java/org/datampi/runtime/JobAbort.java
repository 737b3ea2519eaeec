package org.datampi.runtime;

import java.util.concurrent.atomic.AtomicBoolean;

import org.datampi.transport.Mpi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the whole job on the first error of any thread of this rank: the error (rank, task, message) goes to stderr
 * and the rank's log, this rank's spill files are removed, and MPI_Abort makes the launcher stop every other rank.
 */
final class JobAbort {
    private static final Logger LOG = LoggerFactory.getLogger(JobAbort.class);
    private static final AtomicBoolean ABORTING = new AtomicBoolean();

    private JobAbort() {
    }

    static void abort(int rank, Throwable cause, Runnable cleanup) {
        if (!ABORTING.compareAndSet(false, true)) {
            return;
        }
        Throwable root = cause instanceof TaskFailedException && cause.getCause() != null ? cause.getCause() : cause;
        String where = cause instanceof TaskFailedException ? cause.getMessage().replaceFirst(" failed: .*", "")
                : "runtime";
        Throwable innermost = root;
        while (innermost.getCause() != null && innermost.getCause() != innermost) {
            innermost = innermost.getCause();
        }
        // Frameworks wrap the real cause (Hive: "Hive Runtime Error while processing row"); name both.
        System.err.println("datampi: job failed on rank " + rank + " (" + ThisHost.NAME + "), " + where + ": " + root
                + (innermost == root ? "" : " (caused by " + innermost + ")"));
        root.printStackTrace(System.err);
        System.err.flush();
        LOG.error("Job failed on rank {} ({}), {}", rank, ThisHost.NAME, where, root);
        try {
            cleanup.run();
        } catch (RuntimeException e) {
            LOG.warn("Cleanup after the failure failed", e);
        }
        Mpi.abort(1);
    }
}
