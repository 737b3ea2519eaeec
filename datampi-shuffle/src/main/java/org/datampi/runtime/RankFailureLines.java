package org.datampi.runtime;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a failing rank prints to stderr before MPI_Abort ({@link JobAbort}), which the launcher forwards to whoever
 * started the job, and how that reader picks it out: one line naming the rank, its host, the task and the cause
 * ({@code datampi: job failed on rank N (HOST), WHERE: CAUSE}; WHERE is {@value #RANK_LOST} when a peer rank is gone,
 * which is no fault of the job and worth another attempt), then the last lines of the rank's own log, which stays
 * on the rank's host ({@code datampi: rank N log HOST:PATH, last lines:}, then {@code datampi: rank N log | LINE}).
 * Every log line names its rank: when several ranks fail at once their lines interleave.
 */
public final class RankFailureLines {
    /** The first line's start. */
    public static final String FAILED = "datampi: job failed on rank ";
    /** Where a failure happened when it is a lost peer rank ({@link RankLostException}) rather than a task's error. */
    public static final String RANK_LOST = "rank lost";
    private static final Pattern FAILED_RANK = Pattern.compile("^" + Pattern.quote(FAILED) + "(\\d+) ");
    private static final Pattern RANK_LOST_LINE = Pattern.compile("^" + Pattern.quote(FAILED) + "\\d+ \\([^)]*\\), "
            + Pattern.quote(RANK_LOST) + ": ");

    private RankFailureLines() {
    }

    static String failed(int rank, String host, String where, String cause) {
        return FAILED + rank + " (" + host + "), " + where + ": " + cause;
    }

    static String logHeader(int rank, String host, String path) {
        return logPrefix(rank) + host + ":" + path + ", last lines:";
    }

    static String logLine(int rank, String line) {
        return logPrefix(rank) + "| " + line;
    }

    /** The rank that a failure's first line names. */
    public static OptionalInt failedRank(String line) {
        Matcher matcher = FAILED_RANK.matcher(line);
        return matcher.find() ? OptionalInt.of(Integer.parseInt(matcher.group(1))) : OptionalInt.empty();
    }

    /** Whether a failure's first line reports a lost peer rank rather than an error of the job's own. */
    public static boolean isRankLost(String line) {
        return RANK_LOST_LINE.matcher(line).find();
    }

    /** The text of a line of RANK's log tail (its header included), without the prefix; empty for other lines. */
    public static Optional<String> logTextOf(int rank, String line) {
        String prefix = logPrefix(rank);
        return line.startsWith(prefix) ? Optional.of(line.substring(prefix.length())) : Optional.empty();
    }

    private static String logPrefix(int rank) {
        return "datampi: rank " + rank + " log ";
    }
}
