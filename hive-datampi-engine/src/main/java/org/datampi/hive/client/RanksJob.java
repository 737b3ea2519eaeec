package org.datampi.hive.client;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.apache.hadoop.hive.ql.plan.BaseWork;
import org.apache.hadoop.mapred.JobConf;
import org.datampi.hive.conf.JobPlan;
import org.datampi.status.JobProgress;

/**
 * A program run on the session's ranks outside Hadoop's job protocol: DAG mode's vertices, which Hive's TezTask runs
 * itself rather than through a JobClient. The same ranks, deadlines, progress and failure reports as a
 * MapReduce-shaped stage ({@link DataMPIJobRunner}).
 */
public final class RanksJob {
    private final String id;
    private final MpidrunJob process;

    private RanksJob(String id, MpidrunJob process) {
        this.id = requireNonNull(id, "id is null");
        this.process = requireNonNull(process, "process is null");
    }

    /**
     * Starts PROGRAM (a class of the ranks' programs, org.datampi.mpid.RankProgram) in the plan's O and A tasks; its
     * arguments are ARGUMENTS followed by the job's id. While every group of ranks is busy it waits, saying so with
     * SAY (Hive's console), unless STOPPED holds (a cancelled stage); WORKS, the stage's Hive plan, tell the queue
     * its size.
     */
    public static RanksJob start(JobConf job, JobPlan plan, Collection<? extends BaseWork> works, String program,
            List<String> arguments, Consumer<String> say, BooleanSupplier stopped) {
        String id = DataMPIJobRunner.newJobId().toString();
        List<String> withId = new ArrayList<>(arguments);
        withId.add(id);
        return new RanksJob(id, StageLaunch.start(job, plan, StageSize.of(works), id, program, withId, say,
                stopped));
    }

    public String id() {
        return id;
    }

    /**
     * Waits for the job's end, telling PROGRESS what the ranks report at least once a second (so that a display can
     * tell elapsed time; {@link JobProgress#NONE} first, the last report at the end); returns whether it succeeded.
     * Every wait is a second at most, so that an interrupt (Ctrl-C) is seen.
     */
    public boolean await(Consumer<JobProgress> progress) throws InterruptedException {
        while (true) {
            progress.accept(process.progress());
            try {
                boolean succeeded = process.exit().get(1, TimeUnit.SECONDS) == MpidrunJob.State.SUCCEEDED;
                progress.accept(process.progress());
                return succeeded;
            } catch (TimeoutException e) {
                // Report, then wait again.
            } catch (ExecutionException e) {
                return false;
            }
        }
    }

    /**
     * Cancels the job unless it has ended: it has GRACE_SECONDS to end on its ranks, which then stay up, before they
     * are stopped. Returns once the ranks are through it or stopped.
     */
    public void cancel(long graceSeconds) {
        if (!process.exit().isDone()) {
            process.cancel(graceSeconds);
        }
    }

    /** What the console says after the job: its ranks' logs and hosts, why it failed, where its time went. */
    public DataMPIJobRunner.JobOutcome outcome() {
        return process.outcome(List.of());
    }
}
