package org.datampi.hive.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.hive.ql.plan.BaseWork;
import org.apache.hadoop.hive.ql.session.SessionState.LogHelper;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.datampi.hive.app.DataMPIHiveApplication;
import org.datampi.hive.app.StageCounters;
import org.datampi.hive.app.TaskCounters;
import org.datampi.hive.conf.JobPlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A submitted job: its plan, the mpidrun job of its current attempt and, once it ended, its merged counters. For
 * Hive the job ends only after {@link #finish} has kept the ranks' counters. An attempt that lost a rank is run
 * again ({@link StageAttempts}) when Hive next asks for the job's status, on Hive's thread: Hive sees one job,
 * as it sees one MapReduce job whatever task attempts YARN ran.
 */
final class RunningJob {
    private static final Logger LOG = LoggerFactory.getLogger(RunningJob.class);
    private final JobID id;
    private final JobConf job;
    private final String submitDir;
    private final JobPlan plan;
    private final LogHelper console;
    private final StageAttempts attempts;
    private volatile MpidrunJob process;
    private volatile CompletableFuture<MpidrunJob.State> end;
    private volatile boolean killed;
    private volatile org.apache.hadoop.mapred.Counters counters = new org.apache.hadoop.mapred.Counters();

    RunningJob(JobID id, JobConf job, String submitDir, JobPlan plan, LogHelper console, StageAttempts attempts) {
        this.id = id;
        this.job = job;
        this.submitDir = submitDir;
        this.plan = plan;
        this.console = console;
        this.attempts = attempts;
        launchAttempt();
    }

    /**
     * Gives the current attempt to the ranks: its own job id for mpidrun after the first (job_..._2), so that
     * its ranks' directories are never the lost attempt's, which may still be swept on other hosts.
     */
    private void launchAttempt() {
        String attemptId = attempts.current() == 1 ? id.toString() : id + "_" + attempts.current();
        // Hive kills a job only once submitted: a Ctrl-C meanwhile reaches the wait through Hive's callbacks.
        MpidrunJob started = StageLaunch.start(job, plan, attemptId, DataMPIHiveApplication.class.getName(),
                List.of(submitDir, id.toString()), console, () -> killed);
        process = started;
        end = started.exit().thenApply(this::finish);
    }

    /** Runs the stage again if its attempt failed because a rank was lost and a retry is left. */
    private synchronized void retryIfRankLost() {
        if (killed || end.isCompletedExceptionally()
                || end.getNow(MpidrunJob.State.RUNNING) != MpidrunJob.State.FAILED
                || !attempts.retryAfter(process.id(), outcome(), false)) {
            return;
        }
        try {
            List<BaseWork> works = new ArrayList<>(List.of(Utilities.getMapWork(job)));
            Optional.ofNullable(Utilities.getReduceWork(job)).ifPresent(works::add);
            StageAttempts.discardOutputs(job, works);
            TaskCounters.clear(job, new Path(submitDir));
        } catch (IOException | HiveException | RuntimeException e) {
            // The lost attempt stands as the job's failure: a retry over its files could double rows.
            LOG.warn("Cannot remove what the lost attempt of {} wrote; not running it again", id, e);
            return;
        }
        launchAttempt();
    }

    void kill() {
        killed = true;
        process.kill();
    }

    /** Merges the counters the ranks wrote into the submit directory. */
    private MpidrunJob.State finish(MpidrunJob.State state) {
        Path dir = new Path(submitDir);
        try {
            if (state == MpidrunJob.State.SUCCEEDED) {
                counters = TaskCounters.merge(job, dir);
            }
            return state;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the counters of " + id + " from " + dir, e);
        }
    }

    /**
     * Deletes the submit directory (splits, job.xml, counter files), as LocalJobRunner does; only once Hive is
     * done with the job, since Hadoop's JobClient reads job.xml back each time Hive polls the job's status.
     */
    void removeSubmitDirectory() {
        Path dir = new Path(submitDir);
        try {
            dir.getFileSystem(job).delete(dir, true);
        } catch (IOException e) {
            LOG.warn("Cannot remove the submit directory {} of {}", dir, id, e);
        }
    }

    /** What the console says after the job's last attempt. */
    DataMPIJobRunner.JobOutcome outcome() {
        return new DataMPIJobRunner.JobOutcome(process.logDir(), process.rankHosts(), failure(), process.rankLost(),
                process.timeline(), StageCounters.describe(counters));
    }

    Optional<String> failure() {
        try {
            end.getNow(null);
            return process.failure();
        } catch (CompletionException e) {
            return Optional.of(e.getCause().getMessage());
        }
    }

    JobStatus status() {
        retryIfRankLost();
        int state = switch (end.isCompletedExceptionally() ? MpidrunJob.State.FAILED
                : end.getNow(MpidrunJob.State.RUNNING)) {
            case RUNNING -> org.apache.hadoop.mapred.JobStatus.RUNNING;
            case SUCCEEDED -> org.apache.hadoop.mapred.JobStatus.SUCCEEDED;
            case FAILED -> org.apache.hadoop.mapred.JobStatus.FAILED;
            case KILLED -> org.apache.hadoop.mapred.JobStatus.KILLED;
        };
        org.apache.hadoop.mapred.JobStatus status = new org.apache.hadoop.mapred.JobStatus(
                org.apache.hadoop.mapred.JobID.downgrade(id), process.mapProgress(), process.reduceProgress(),
                1.0f, state, job.getUser(), job.getJobName(), submitDir + "/job.xml", "");
        failure().ifPresent(status::setFailureInfo);
        return status;
    }

    org.apache.hadoop.mapred.Counters counters() {
        return counters;
    }

    /** The task counts of its plan. */
    JobPlan plan() {
        return plan;
    }

    /** The share of O tasks done by the current attempt. */
    float mapProgress() {
        return process.mapProgress();
    }

    /** The share of A tasks done by the current attempt. */
    float reduceProgress() {
        return process.reduceProgress();
    }
}
