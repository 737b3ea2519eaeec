package org.datampi.status;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the ranks of a process group tell the job runner that started them, as records on the status channel
 * ({@link StatusSender} to {@link StatusReceiver}): the group is up, a job's progress, a job done, a rank failed.
 * The job runner acts on these records alone; the ranks' console lines ({@link #consoleLines}) are for people.
 */
public sealed interface RankStatus permits RankStatus.GroupUp, JobProgress, RankStatus.JobDone, RankStatus.RankFailed {
    /**
     * Rank 0's first record, once every rank has said where it runs.
     *
     * @param hostOfRank each rank's host, as the rank calls it
     * @param logDir the directory of the rank logs, on each rank's own host
     */
    record GroupUp(List<String> hostOfRank, String logDir) implements RankStatus {
        public GroupUp {
            hostOfRank = List.copyOf(requireNonNull(hostOfRank, "hostOfRank is null"));
            requireNonNull(logDir, "logDir is null");
        }
    }

    /** Every rank is through the job (serve mode): the group takes the next. */
    record JobDone(String jobId) implements RankStatus {
        public JobDone {
            requireNonNull(jobId, "jobId is null");
        }

        /** The console line. */
        public String line() {
            return "datampi: job " + jobId + " done";
        }
    }

    /**
     * A rank's report of the error that ends the job, sent before MPI_Abort.
     *
     * @param where the task that failed ("O task 3", "vertex Map 1, task 0"), "runtime", or {@link #RANK_LOST}
     * @param rankLost whether the cause is a peer rank that is gone rather than an error of the job's own: no fault
     *     of the job, and worth another attempt
     * @param logPath the rank's log on its host; empty when it logs nowhere
     * @param logTail the last lines of that log before the failure (the log stays on the rank's host)
     */
    record RankFailed(int rank, String host, String where, String cause, boolean rankLost, Optional<String> logPath,
            List<String> logTail) implements RankStatus {
        /** What a failure names as where it happened when a peer rank is gone. */
        public static final String RANK_LOST = "rank lost";
        /** How the headline starts. */
        public static final String HEADLINE_START = "datampi: job failed on rank ";

        public RankFailed {
            requireNonNull(host, "host is null");
            requireNonNull(where, "where is null");
            requireNonNull(cause, "cause is null");
            requireNonNull(logPath, "logPath is null");
            logTail = List.copyOf(requireNonNull(logTail, "logTail is null"));
        }

        /** The failure on one line: {@code datampi: job failed on rank N (HOST), WHERE: CAUSE}. */
        public String headline() {
            return HEADLINE_START + rank + " (" + host + "), " + where + ": "
                    + cause.replaceAll("\\s*\\R\\s*", " ");
        }

        /** The report for the user: the headline, then the log's host and path and its last lines. */
        public String report() {
            List<String> lines = new ArrayList<>(List.of(headline()));
            logPath.ifPresent(path -> {
                lines.add(host + ":" + path + ", last lines:");
                logTail.forEach(line -> lines.add("| " + line));
            });
            return String.join("\n", lines);
        }

        /**
         * The report as the rank prints it on its console: every line names the rank, since the lines of ranks that
         * fail at once interleave there.
         */
        public List<String> consoleLines() {
            List<String> lines = new ArrayList<>(List.of(headline()));
            String prefix = "datampi: rank " + rank + " log ";
            logPath.ifPresent(path -> {
                lines.add(prefix + host + ":" + path + ", last lines:");
                logTail.forEach(line -> lines.add(prefix + "| " + line));
            });
            return lines;
        }
    }
}
