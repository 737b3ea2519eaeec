package org.datampi.hive.exec;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.common.HiveInterruptCallback;
import org.apache.hadoop.hive.common.HiveInterruptUtils;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.Context;
import org.apache.hadoop.hive.ql.exec.FileSinkOperator;
import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.exec.tez.TezTask;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.hive.ql.plan.BaseWork;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.tez.common.counters.TezCounter;
import org.apache.tez.common.counters.TezCounters;
import org.datampi.hive.app.DataMPIDagApplication;
import org.datampi.hive.app.StageCounters;
import org.datampi.hive.app.TaskCounters;
import org.datampi.hive.client.RanksJob;
import org.datampi.hive.client.SessionRanks;
import org.datampi.hive.client.StageAttempts;
import org.datampi.hive.conf.DataMPISettings;
import org.datampi.hive.conf.JobPlan;
import org.datampi.hive.dag.DagBuilder;
import org.datampi.hive.dag.DagJob;
import org.datampi.hive.dag.DagVertex;
import org.datampi.hive.dag.PruningFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task Hive builds for a TezWork (a DAG of MapWork, ReduceWork and MergeJoinWork vertices), through Hive's
 * work-to-task table (plan.DataMPIEngine). It has to be a TezTask: Hive's Tez compiler casts the tasks it builds to
 * TezTask and tests for it (GenTezProcContext, Vectorizer, MemoryDecider, SemanticAnalyzer), EXPLAIN included.
 *
 * <p>For a query compiled with {@code hive.datampi.plan=dag} (plan.DataMPIEngine.compileAsDag, which marks its
 * configuration: {@link #markForDatampi}) the DAG runs on the
 * session's ranks: the DAG is built as Tez's would be ({@link DagBuilder}), written once into the query's scratch
 * directory, and run on the ranks vertex by vertex, its edges streams of datampi's shuffle
 * ({@link DataMPIDagApplication}); Hive's job close then commits the tasks' files. An attempt that lost a rank is
 * run again on a fresh group ({@link StageAttempts}). A DAG with what the ranks do not
 * run yet (docs/dag-mode.md) is refused before anything is read or written. Any other TezTask (a session on Tez) is
 * Hive's own.
 */
public final class DataMPIDagTask extends TezTask {
    private static final long serialVersionUID = 1L;
    private static final Logger DAG_LOG = LoggerFactory.getLogger(DataMPIDagTask.class);
    /** Set on a query's own configuration by {@link #markForDatampi}: its TezTasks are datampi's. */
    private static final String DATAMPI_DAG = "hive.datampi.dag";

    /** The stage's job on the ranks once started: what shutdown() stops from Hive's other threads. */
    private transient volatile RanksJob running;
    /** Set by shutdown() (a cancelled query, Ctrl-C): the stage does not start, or stops. */
    private transient volatile boolean cancelled;
    /** The least cancel grace asked for (Ctrl-C: none), for a cancel that came before the job was {@link #running}. */
    private transient volatile long askedGraceSeconds = Long.MAX_VALUE;

    /** Sends the TezTasks of the query whose own configuration this is to datampi (never a session's). */
    public static void markForDatampi(Configuration query) {
        query.setBoolean(DATAMPI_DAG, true);
    }

    /** Takes back {@link #markForDatampi}: the query has no TezTask (plan.DataMPIEngine.runWithoutDag). */
    public static void unmark(Configuration query) {
        query.unset(DATAMPI_DAG);
    }

    /** Whether a query's configuration was marked by {@link #markForDatampi}. */
    static boolean isMarkedForDatampi(Configuration query) {
        return query.getBoolean(DATAMPI_DAG, false);
    }

    @Override
    public int execute() {
        if (!isMarkedForDatampi(conf)) {
            return super.execute();
        }
        long started = System.nanoTime();
        SessionRanks.usedBy(SessionState.get());
        Context queryContext = context != null ? context : new Context(conf);
        Path dagDir = null;
        boolean success = false;
        boolean interrupted = false;
        // The session's cancel grace, once the settings are checked.
        long grace = 0;
        // Ctrl-C in Hive's CLI (and ours) reaches running stages through Hive's interrupt callbacks: the user at
        // the terminal waits for the prompt, so the ranks stop at once.
        HiveInterruptCallback interrupt = () -> cancel(0);
        HiveInterruptUtils.add(interrupt);
        DagProgressDisplay display = null;
        try {
            JobConf jobConf = new JobConf(conf);
            DataMPISettings.validate(jobConf);
            grace = DataMPISettings.cancelGraceSeconds(jobConf);
            int ranks = JobPlan.slots(jobConf);
            dagDir = new Path(queryContext.getMRTmpPath(), "datampi-dag-" + UUID.randomUUID());
            DagJob dag = DagBuilder.build(conf, queryContext, queryPlan, getWork(), ranks,
                    (int) DataMPISettings.heapMegabytes(jobConf), new Path(dagDir, "jars"),
                    DataMPISettings.flag(jobConf, DataMPISettings.CONCURRENT_VERTICES, true));
            Path dagFile = new Path(dagDir, "dag");
            FileSystem fs = dagFile.getFileSystem(conf);
            try (OutputStream out = fs.create(dagFile, false)) {
                dag.write(out);
            }
            JobPlan plan = JobPlan.of(jobConf, ranks, dag.handedOutTasks(), dag.placedTasks(), true, true);
            StageAttempts attempts = new StageAttempts(console::printInfo, conf, getId());
            while (true) {
                if (cancelled) {
                    throw new HiveException("datampi: " + getId() + " was cancelled before it started");
                }
                RanksJob job = RanksJob.start(jobConf, plan, getWork().getAllWork(),
                        DataMPIDagApplication.class.getName(),
                        List.of(fs.makeQualified(dagFile).toString()), console::printInfo, () -> cancelled);
                running = job;
                if (cancelled) {
                    job.cancel(Math.min(grace, askedGraceSeconds));
                }
                console.printInfo("datampi: " + getId() + " " + job.id() + ": " + dag.vertices().stream()
                        .map(DataMPIDagTask::describe)
                        .collect(Collectors.joining(", ")) + "; on " + ranks + " ranks" + attempts.describeCurrent());
                display = new DagProgressDisplay(console, conf, getId(), dag, System.currentTimeMillis());
                success = job.await(display::update);
                display.finish(success ? DagProgressMonitor.State.SUCCEEDED
                        : cancelled ? DagProgressMonitor.State.KILLED : DagProgressMonitor.State.FAILED);
                if (success || !attempts.retryAfter(job.id(), job.outcome(), cancelled)) {
                    break;
                }
                // The failed attempt's group has ended; what its tasks wrote goes, as a failed stage's would.
                StageAttempts.discardOutputs(conf, getWork().getAllWork());
                TaskCounters.clear(conf, dagDir);
                new PruningFiles(conf, dagDir).clear();
                started = System.nanoTime();
            }
            if (success) {
                summarize(dag, dagDir, ranks);
            }
        } catch (InterruptedException e) {
            interrupted = true;
            if (display != null) {
                display.finish(DagProgressMonitor.State.KILLED);
            }
            console.printError("datampi: " + getId() + " was interrupted");
            setException(e);
        } catch (Exception e) {
            console.printError("datampi: " + getId() + " failed: " + e.getMessage());
            setException(e);
        } finally {
            HiveInterruptUtils.remove(interrupt);
            RanksJob job = running;
            if (job != null) {
                // No rank may still read the DAG or write task files once the stage is closed. A job still running
                // here was interrupted (HiveServer2 interrupts a query's thread when its session closes, before it
                // cancels the query: SQLOperation.cleanup) or its stage failed here: it has the grace a cancel has.
                job.cancel(Math.min(grace, askedGraceSeconds));
            }
            success = close(success);
            if (job != null) {
                StageReport.print(console, getId(), job.id(), job.outcome(), true, !success, started,
                        System.nanoTime(), this::setException);
            }
            removeQuietly(dagDir);
            if (queryContext != context) {
                clearQuietly(queryContext);
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return success ? 0 : 2;
    }

    /**
     * A cancelled query (HiveServer2's cancel, a session closed mid-query): the stage does not start, or its job is
     * cancelled with {@link DataMPISettings#CANCEL_GRACE}. Returns once its ranks are through it or stopped.
     */
    @Override
    public void shutdown() {
        if (!isMarkedForDatampi(conf)) {
            super.shutdown();
            return;
        }
        cancel(DataMPISettings.cancelGraceSeconds(conf));
    }

    /** The stage does not start, or its job has GRACE_SECONDS to end on its ranks before they are stopped. */
    private void cancel(long graceSeconds) {
        synchronized (this) {
            askedGraceSeconds = Math.min(askedGraceSeconds, graceSeconds);
        }
        cancelled = true;
        RanksJob job = running;
        if (job != null) {
            job.cancel(graceSeconds);
        }
    }

    /**
     * Hive's job close of every operator of the DAG, as TezTask's close: on success the file sinks move their tasks'
     * files into place (and drop duplicates); on failure they remove them. Returns whether the stage succeeded.
     */
    private boolean close(boolean success) {
        try {
            for (BaseWork work : getWork().getAllWork()) {
                for (Operator<?> operator : work.getAllOperators()) {
                    operator.jobClose(conf, success);
                }
            }
            return success;
        } catch (HiveException | RuntimeException e) {
            console.printError("datampi: " + getId() + ": job close failed: " + e.getMessage());
            setException(e);
            return false;
        }
    }

    /** A vertex for the console's start line: its tasks, or what its splits wait for. */
    private static String describe(DagVertex vertex) {
        return vertex.name() + (vertex.deferred() ? " (tasks once " + String.join(", ", vertex.eventSources())
                + " pruned its partitions)" : " (" + vertex.tasks().size() + " tasks)");
    }

    /**
     * Hive's counters of the stage (statistics, Hive's own console lines), the console's lines on locality and job
     * files, and the execution summary ({@link DataMPISettings#PRINT_SUMMARY}).
     */
    private void summarize(DagJob ran, Path dagDir, int ranks) {
        try {
            // The vertices whose splits rank 0 made while the DAG ran, with their tasks.
            DagJob dag = ran;
            PruningFiles pruning = new PruningFiles(conf, dagDir);
            for (DagVertex vertex : ran.vertices()) {
                if (vertex.deferred()) {
                    dag = dag.withMadeSplits(pruning.readVertex(vertex.name()).orElseThrow(() -> new IOException(
                            "Rank 0 saved no tasks for " + vertex.name() + " in " + dagDir)));
                }
            }
            Map<String, Counters> saved = TaskCounters.read(conf, dagDir);
            Counters counters = TaskCounters.sum(saved.values());
            TezCounters tez = tezCounters(counters);
            setTezCounters(tez);
            reportModifiedRows(tez);
            StageCounters.describe(counters).forEach(line -> console.printInfo("datampi: " + getId() + " " + line));
            if (DataMPISettings.flag(conf, DataMPISettings.PRINT_SUMMARY, true)) {
                DagSummary.lines(dag, saved, HiveConf.getVar(conf, HiveConf.ConfVars.HIVE_COUNTER_GROUP), ranks)
                        .forEach(console::printInfo);
            }
        } catch (IOException | RuntimeException e) {
            // The stage's output is sound; only the summary's figures are missing.
            DAG_LOG.warn("Cannot read the counters of {} from {}", getId(), dagDir, e);
        }
    }

    /**
     * The rows the stage's file sinks wrote, for the query's "rows affected" (JDBC's update count), as TezTask
     * reports them.
     */
    private void reportModifiedRows(TezCounters counters) {
        TezCounter written = counters.getGroup(HiveConf.getVar(conf, HiveConf.ConfVars.HIVE_COUNTER_GROUP))
                .findCounter(FileSinkOperator.TOTAL_TABLE_ROWS_WRITTEN, false);
        if (written != null && queryState != null) {
            queryState.setNumModifiedRows(written.getValue());
        }
    }

    private static TezCounters tezCounters(Counters counters) {
        TezCounters tez = new TezCounters();
        for (Counters.Group group : counters) {
            for (Counters.Counter counter : group) {
                tez.findCounter(group.getName(), counter.getName()).increment(counter.getValue());
            }
        }
        return tez;
    }

    private void removeQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try {
            dir.getFileSystem(conf).delete(dir, true);
        } catch (IOException e) {
            DAG_LOG.warn("Cannot remove {}", dir, e);
        }
    }

    private void clearQuietly(Context own) {
        try {
            own.clear();
        } catch (IOException e) {
            DAG_LOG.warn("Cannot clear the context of {}", getId(), e);
        }
    }
}
