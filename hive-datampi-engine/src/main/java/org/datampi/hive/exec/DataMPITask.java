package org.datampi.hive.exec;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.Context;
import org.apache.hadoop.hive.ql.QueryPlan;
import org.apache.hadoop.hive.ql.QueryState;
import org.apache.hadoop.hive.ql.TaskQueue;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.exec.mr.ExecMapper;
import org.apache.hadoop.hive.ql.exec.mr.HadoopJobExecHelper;
import org.apache.hadoop.hive.ql.exec.mr.MapRedTask;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.datampi.hive.client.DataMPIJobRunner;
import org.datampi.hive.client.SessionRanks;
import org.datampi.hive.conf.DataMPISettings;
import org.datampi.hive.conf.JobPlan;

/**
 * Hive's MapReduce-shaped stage (a MapWork and an optional ReduceWork) run on datampi: O tasks run the map side over
 * the input splits, A tasks the reduce side. Hive builds one wherever it would build a MapRedTask (see
 * plan.DataMPIEngine); with another engine selected it is a plain MapRedTask.
 *
 * <p>Everything Hive's ExecDriver does before and after a job stays Hive's own: the plan written with Hive's
 * utilities, input format and splits, partitioner, sampling, added jars and files, temporary directories, statistics,
 * and job-close (file commit, dynamic partitions) on every top operator and the reducer. Only the job runner
 * changes: the job is submitted to the "datampi" framework ({@link DataMPIJobRunner}), which launches it with
 * mpidrun.
 */
public final class DataMPITask extends MapRedTask {
    private static final long serialVersionUID = 1L;
    /** Hive polls a running job this often (its default, 1 s, would add up to a second to every stage). */
    private static final long STATUS_POLL_MILLIS = 50;
    private static final long MIN_SPLIT_BYTES = 16L * 1024 * 1024;

    /** Hive's initialization, then its console without what is wrong for datampi ({@link MapReduceConsole}). */
    @Override
    public void initialize(QueryState queryState, QueryPlan queryPlan, TaskQueue taskQueue, Context context) {
        super.initialize(queryState, queryPlan, taskQueue, context);
        if (DataMPISettings.engineSelected(conf)) {
            console = new MapReduceConsole(LOG, console.getIsSilent());
            jobExecHelper = new HadoopJobExecHelper(job, console, this, this);
        }
    }

    @Override
    public int execute() {
        long started = System.nanoTime();
        if (DataMPISettings.engineSelected(conf)) {
            SessionRanks.usedBy(SessionState.get());
            int slots;
            try {
                DataMPISettings.validate(job);
                slots = JobPlan.slots(job);
            } catch (IllegalArgumentException | UncheckedIOException e) {
                // A setting or hostfile the admin must fix: say which, without a stack trace.
                console.printError("datampi: " + e.getMessage());
                setException(new HiveException(e.getMessage()));
                return 1;
            }
            job.set(MRConfig.FRAMEWORK_NAME, DataMPIJobRunner.FRAMEWORK_NAME);
            // The ranks load Hive from the engine's classpath: without this, Hadoop's job submitter would copy the
            // 90 MB hive-exec jar into every stage's submit directory. Jars the user ADDs still travel as tmpjars.
            job.unset(MRJobConfig.JAR);
            HiveConf.setLongVar(job, HiveConf.ConfVars.HIVE_COUNTERS_PULL_INTERVAL, STATUS_POLL_MILLIS);
            job.set(DataMPIJobRunner.STAGE_ID, getId());
            job.setBoolean(DataMPIJobRunner.LAST_STAGE, getChildTasks() == null || getChildTasks().stream()
                    .noneMatch(child -> child instanceof MapRedTask));
            spreadInputOverRanks(slots);
            // -1 means "Hive estimates"; anything else was fixed by the plan (ORDER BY, bucketing) or the user.
            job.setBoolean(DataMPIJobRunner.REDUCERS_FIXED, work.getReduceWork() != null
                    && (work.getReduceWork().getNumReduceTasks() >= 0
                            || HiveConf.getIntVar(conf, HiveConf.ConfVars.HADOOP_NUM_REDUCERS) >= 0));
        }
        int result = super.execute();
        if (DataMPISettings.engineSelected(conf)) {
            // Hive's in-process record readers return no rows while the JVM-wide ExecMapper "done" flag is set, and
            // only an in-process ExecMapper clears it. An earlier in-process job (mr, a map-join local task) may have
            // left it set; a datampi stage ran its mappers in the ranks, so clear it here, as a map task here would,
            // or a following in-process stage (Hive's small-file merge) would silently read nothing.
            ExecMapper.setDone(false);
            if (getJobID() != null) {
                long ended = System.nanoTime();
                DataMPIJobRunner.release(getJobID()).ifPresent(outcome -> StageReport.print(console, getId(),
                        getJobID(), outcome, false, result != 0, started, ended, this::setException));
            }
        }
        return result;
    }

    /**
     * At least one input split per rank where the input allows. Hive's CombineHiveInputFormat packs a stage's input
     * into splits of up to mapred.max.split.size (256 MB) for a cluster's many map slots; a 250 MB table would be
     * one O task while every other rank idles. Splits stay at least {@value #MIN_SPLIT_BYTES} bytes.
     */
    private void spreadInputOverRanks(int slots) {
        if (context == null) {
            return;
        }
        long maxSplit = HiveConf.getLongVar(job, HiveConf.ConfVars.MAPRED_MAX_SPLIT_SIZE);
        long input;
        try {
            input = Utilities.getInputSummary(context, work.getMapWork(), null).getLength();
        } catch (IOException e) {
            LOG.warn("Cannot size the input of {}; keeping {}={}", getId(),
                    HiveConf.ConfVars.MAPRED_MAX_SPLIT_SIZE.varname, maxSplit, e);
            return;
        }
        long perRank = Math.max(MIN_SPLIT_BYTES, (input + slots - 1) / slots);
        if (perRank < maxSplit) {
            HiveConf.setLongVar(job, HiveConf.ConfVars.MAPRED_MAX_SPLIT_SIZE, perRank);
        }
    }
}
