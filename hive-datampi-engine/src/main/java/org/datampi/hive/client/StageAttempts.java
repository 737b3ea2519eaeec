package org.datampi.hive.client;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.Collection;
import java.util.function.Consumer;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.hive.ql.plan.BaseWork;
import org.apache.hadoop.hive.ql.plan.MapWork;
import org.apache.hadoop.hive.ql.plan.MergeJoinWork;
import org.apache.hadoop.hive.ql.plan.ReduceWork;
import org.datampi.hive.client.DataMPIJobRunner.JobOutcome;
import org.datampi.hive.conf.DataMPISettings;

/**
 * The attempts of one datampi stage, either shape: the first, and one more for each failed attempt that lost a rank
 * (killed, crashed, its host gone), up to {@link DataMPISettings#STAGE_RETRIES}. A stage that failed by an error of its
 * own (a throwing UDF, corrupt input) or was stopped (Ctrl-C, a deadline) is not run again: the same error would come
 * again, or the user asked for the end. Each attempt runs on a fresh group, since a failed job ends its group; before
 * it starts, what the failed attempt's tasks wrote is removed ({@link #discardOutputs}), so that nothing of it reaches
 * the output. The console says each retry, with its cause.
 *
 * <p>Not thread-safe: used by one thread at a time (the DAG shape's task on Hive's thread; for the MapReduce shape, the
 * thread that ended an attempt, see {@link JobAttempts}).
 */
public final class StageAttempts {
    private final Consumer<String> say;
    private final String stage;
    private final int allowed;
    private int attempt = 1;

    /**
     * @param say prints a line on Hive's console
     * @param stage what the console calls the stage (Hive's Stage-1)
     */
    public StageAttempts(Consumer<String> say, Configuration conf, String stage) {
        this.say = requireNonNull(say, "say is null");
        this.stage = requireNonNull(stage, "stage is null");
        this.allowed = 1 + DataMPISettings.stageRetries(conf);
    }

    /**
     * Whether the stage runs again after its current attempt, job JOB_ID, failed with OUTCOME (not when STOPPED); if
     * so, the console says why, and the next attempt is counted.
     */
    public boolean retryAfter(String jobId, JobOutcome outcome, boolean stopped) {
        if (!outcome.rankLost() || stopped || attempt >= allowed) {
            return false;
        }
        String cause = outcome.failure().map(failure -> failure.lines().findFirst().orElse(failure))
                .orElse("no cause reported");
        say.accept("datampi: " + stage + " " + jobId + " (attempt " + attempt + " of " + allowed
                + ") lost a rank: " + cause);
        attempt++;
        say.accept("datampi: " + stage + " runs again on a fresh group of ranks (attempt " + attempt + " of "
                + allowed + ", " + DataMPISettings.STAGE_RETRIES + "=" + (allowed - 1) + ")");
        return true;
    }

    /** The attempt that runs, counted from 1. */
    public int current() {
        return attempt;
    }

    /** For the stage's lines: empty for the first attempt, ", attempt 2 of 2" for a retry. */
    public String describeCurrent() {
        return attempt == 1 ? "" : ", attempt " + attempt + " of " + allowed;
    }

    /**
     * Removes what a failed attempt's tasks wrote, as Hive's job close of a failed stage does (a file sink deletes its
     * temporary directories), but through each operator's jobCloseOp: Hive's jobClose runs once per operator object
     * (Operator.jobCloseDone), and the stage's last attempt still needs its own. Then makes the file sinks'
     * temporary directories again, as Hive does before a stage runs: a task commits its file by a rename into one,
     * which on HDFS fails when the directory is missing.
     */
    public static void discardOutputs(Configuration conf, Collection<? extends BaseWork> works)
            throws HiveException, IOException {
        for (BaseWork work : works) {
            for (Operator<?> operator : work.getAllOperators()) {
                operator.jobCloseOp(conf, false);
            }
        }
        for (BaseWork work : works) {
            createTmpDirs(conf, work);
        }
    }

    private static void createTmpDirs(Configuration conf, BaseWork work) throws IOException {
        if (work instanceof MergeJoinWork join) {
            createTmpDirs(conf, join.getMainWork());
            for (BaseWork joined : join.getBaseWorkList()) {
                createTmpDirs(conf, joined);
            }
        } else if (work instanceof MapWork map) {
            Utilities.createTmpDirs(conf, map);
        } else if (work instanceof ReduceWork reduce) {
            Utilities.createTmpDirs(conf, reduce);
        }
    }
}
