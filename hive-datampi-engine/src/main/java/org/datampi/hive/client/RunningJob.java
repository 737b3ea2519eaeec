package org.datampi.hive.client;

import static java.util.Objects.requireNonNull;

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
 * A submitted job as Hadoop's JobClient sees it: its plan, its attempts ({@link JobAttempts}, which run a stage that
 * lost a rank again on a thread of their own) and, once it ended, its merged counters. For Hive the job ends only
 * after {@link #finish} has kept the ranks' counters. Hive's status poll only reads, and prints the lines an attempt
 * said meanwhile ({@link ConsoleRelay}): Hive sees one job, as it sees one MapReduce job whatever task attempts YARN
 * ran.
 */
final class RunningJob {
    private static final Logger LOG = LoggerFactory.getLogger(RunningJob.class);
    private final JobID id;
    private final JobConf job;
    private final String submitDir;
    private final JobPlan plan;
    /** Hive's own plan objects of the stage, whose operators a failed attempt's discard closes. */
    private final List<BaseWork> works;
    private final ConsoleRelay console;
    private final JobAttempts attempts;
    private final CompletableFuture<MpidrunJob.State> end;
    private volatile org.apache.hadoop.mapred.Counters counters = new org.apache.hadoop.mapred.Counters();

    /**
     * On Hive's thread: the job as submitted to the ranks, its first attempt started, what it says (a wait for a group,
     * a retry) going to Hive's CONSOLE; STAGE is what the console calls it (Stage-1).
     */
    static RunningJob submit(JobID id, JobConf job, String submitDir, JobPlan plan, LogHelper console, String stage) {
        ConsoleRelay relay = new ConsoleRelay(console::printInfo);
        List<BaseWork> works = stageWorks(job);
        StageSize size = StageSize.of(works);
        return new RunningJob(id, job, submitDir, plan, stage, relay, works,
                (attemptId, stopped) -> StageLaunch.start(job, plan, size, attemptId,
                        DataMPIHiveApplication.class.getName(), List.of(submitDir, id.toString()), relay, stopped));
    }

    /**
     * Starts the job's first attempt with LAUNCHER; a lost attempt's discard closes the operators of WORKS, and what
     * the attempts say goes through CONSOLE.
     */
    RunningJob(JobID id, JobConf job, String submitDir, JobPlan plan, String stage, ConsoleRelay console,
            List<BaseWork> works, JobAttempts.Launcher launcher) {
        this.id = requireNonNull(id, "id is null");
        this.job = requireNonNull(job, "job is null");
        this.submitDir = requireNonNull(submitDir, "submitDir is null");
        this.plan = requireNonNull(plan, "plan is null");
        this.works = List.copyOf(works);
        this.console = requireNonNull(console, "console is null");
        // Hive kills a job only once submitted: a Ctrl-C meanwhile reaches the wait through Hive's callbacks.
        this.attempts = JobAttempts.start(id.toString(), new StageAttempts(console, job, stage), launcher,
                this::discardAttempt);
        this.end = attempts.end().thenApply(this::finish);
    }

    /**
     * The stage's map and reduce work as Hive's thread holds them (Hive's plan cache is per thread in HiveServer2,
     * and a copy read on another thread would stay in its JVM-wide cache).
     */
    private static List<BaseWork> stageWorks(JobConf job) {
        List<BaseWork> works = new ArrayList<>(List.of(Utilities.getMapWork(job)));
        Optional.ofNullable(Utilities.getReduceWork(job)).ifPresent(works::add);
        return works;
    }

    /** Removes what a lost attempt's tasks wrote and the counters its ranks left (on the attempts' thread). */
    private void discardAttempt() throws IOException, HiveException {
        StageAttempts.discardOutputs(job, works);
        TaskCounters.clear(job, new Path(submitDir));
    }

    void kill() {
        attempts.kill();
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

    /** What the console says after the job's last attempt (on Hive's thread: the lines it said come first). */
    DataMPIJobRunner.JobOutcome outcome() {
        console.flush();
        DataMPIJobRunner.JobOutcome last = attempts.current().outcome(StageCounters.describe(counters));
        return new DataMPIJobRunner.JobOutcome(last.logDir(), last.rankHosts(), failure(), last.rankLost(),
                last.timeline(), last.notes());
    }

    /** The job's first error: its last attempt's, or why its counters or a retry could not be had. */
    private Optional<String> failure() {
        try {
            end.getNow(null);
            return attempts.current().failure();
        } catch (CompletionException e) {
            return Optional.of(e.getCause().getMessage());
        }
    }

    JobStatus status() {
        console.flush();
        int state = switch (end.isCompletedExceptionally() ? MpidrunJob.State.FAILED
                : end.getNow(MpidrunJob.State.RUNNING)) {
            case RUNNING -> org.apache.hadoop.mapred.JobStatus.RUNNING;
            case SUCCEEDED -> org.apache.hadoop.mapred.JobStatus.SUCCEEDED;
            case FAILED -> org.apache.hadoop.mapred.JobStatus.FAILED;
            case KILLED -> org.apache.hadoop.mapred.JobStatus.KILLED;
        };
        org.apache.hadoop.mapred.JobStatus status = new org.apache.hadoop.mapred.JobStatus(
                org.apache.hadoop.mapred.JobID.downgrade(id), mapProgress(), reduceProgress(),
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
        return attempts.current().mapProgress();
    }

    /** The share of A tasks done by the current attempt. */
    float reduceProgress() {
        return attempts.current().reduceProgress();
    }
}
