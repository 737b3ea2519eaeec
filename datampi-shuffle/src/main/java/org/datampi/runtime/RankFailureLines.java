package org.datampi.runtime;

/**
 * What a failing rank prints to stderr before MPI_Abort ({@link JobAbort}), which the launcher forwards to whoever
 * started the job: one line naming the rank, its host, the task and the cause, then the last lines of the rank's own
 * log (it stays on the rank's host, where the launcher's host cannot read it).
 */
public final class RankFailureLines {
    /** The first line: {@code datampi: job failed on rank N (HOST), WHERE: CAUSE}. */
    public static final String FAILED = "datampi: job failed on rank ";
    /**
     * The log's tail: {@code datampi: rank log HOST:PATH, last lines:}, then {@code datampi: rank log | LINE} for
     * each line.
     */
    public static final String LOG = "datampi: rank log ";

    private RankFailureLines() {
    }
}
