package org.datampi.runtime;

/**
 * What a rank does on the first failure of its job, from any of its threads: in a rank process {@link JobAbort}
 * (report, clean up, MPI_Abort: it does not return); in tests of a rank's side over an in-memory transport, a recorder.
 */
interface JobFailure {
    /** Ends the job on CAUSE, after running CLEANUP (what this rank wrote); later calls return at once. */
    void abort(Throwable cause, Runnable cleanup);
}
