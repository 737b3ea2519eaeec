package org.datampi.hive.exec;

import static java.util.Objects.requireNonNull;

import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.hive.common.log.InPlaceUpdate;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.session.SessionState.LogHelper;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.datampi.hive.conf.DataMPISettings;
import org.datampi.hive.dag.DagJob;
import org.datampi.hive.dag.DagVertex;
import org.datampi.status.JobProgress;
import org.fusesource.jansi.internal.CLibrary;

/**
 * Shows a DAG stage's progress while it runs, as Hive shows Hive on Tez's (its RenderStrategy): in Hive's CLI on a
 * terminal, a table updated in place ({@link DagProgressMonitor} rendered by Hive's {@link InPlaceUpdate}; setting
 * {@link DataMPISettings#INPLACE_PROGRESS}); otherwise, silent, piped or in HiveServer2, plain lines
 * ({@code Map 1: 3(+1)/4, Reducer 2: 0/2}), each when the progress changed or hive.querylog.plan.progress.interval
 * has passed. Either way the session's progress monitor is updated: HiveServer2 hands it to its clients (HiveServer2
 * 4.0.1 sends the table itself only to sessions on tez, the others get its percentage; README).
 *
 * <p>Used by the stage's thread only: the session is the one of the thread that made this display.
 */
final class DagProgressDisplay {
    private final LogHelper console;
    private final SessionState session;
    private final String stage;
    private final DagJob dag;
    private final long startTime;
    /** Null: plain lines. */
    private final InPlaceUpdate table;
    private final long intervalMillis;
    private JobProgress last = JobProgress.NONE;
    private String lastLine;
    private long lastPrinted;

    /**
     * @param stage Hive's stage id (Stage-1)
     * @param startTime the stage's start, in milliseconds of the epoch
     */
    DagProgressDisplay(LogHelper console, HiveConf conf, String stage, DagJob dag, long startTime) {
        this.console = requireNonNull(console, "console is null");
        this.stage = requireNonNull(stage, "stage is null");
        this.dag = requireNonNull(dag, "dag is null");
        this.startTime = startTime;
        this.session = SessionState.get();
        boolean inPlace = DataMPISettings.flag(conf, DataMPISettings.INPLACE_PROGRESS, true) && !console.getIsSilent()
                && session != null && !session.isHiveServerQuery() && Terminal.isTerminal();
        this.table = inPlace ? new InPlaceUpdate(LogHelper.getInfoStream()) : null;
        this.intervalMillis = HiveConf.getTimeVar(conf, HiveConf.ConfVars.HIVE_LOG_INCREMENTAL_PLAN_PROGRESS_INTERVAL,
                TimeUnit.MILLISECONDS);
    }

    /** The ranks' latest report (called at least once a second while the stage runs). */
    void update(JobProgress progress) {
        last = requireNonNull(progress, "progress is null");
        show(DagProgressMonitor.State.RUNNING);
    }

    /** The stage ended: the table shows its end state (plain lines need no more). */
    void finish(DagProgressMonitor.State state) {
        if (table != null) {
            show(state);
        } else if (session != null) {
            session.updateProgressMonitor(DagProgressMonitor.of(dag, last, startTime, state));
        }
    }

    private void show(DagProgressMonitor.State state) {
        DagProgressMonitor monitor = DagProgressMonitor.of(dag, last, startTime, state);
        if (session != null) {
            session.updateProgressMonitor(monitor);
        }
        if (table != null) {
            table.render(monitor);
            return;
        }
        String line = stage + " " + vertexProgress(dag, last);
        long now = System.currentTimeMillis();
        if (!line.equals(lastLine) || now - lastPrinted >= intervalMillis) {
            console.printInfo(new SimpleDateFormat("yyyy-MM-dd HH:mm:ss,SSS").format(new Date(now)) + " " + line);
            lastLine = line;
            lastPrinted = now;
        }
    }

    /**
     * Each vertex's tasks done, running (where rank 0 hands them out) and in all, as Hive on Tez prints them without
     * in-place updates ({@code Map 1: 3(+1)/4, Reducer 2: 0/2}); vertex i is the job's stage i. A vertex whose splits
     * wait for dynamic partition pruning shows {@code -/-} until they are made, as Hive shows a vertex not initialized.
     */
    static String vertexProgress(DagJob dag, JobProgress progress) {
        List<DagVertex> vertices = dag.vertices();
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < vertices.size(); i++) {
            JobProgress.Stage stage = i < progress.stages().size() ? progress.stages().get(i)
                    : new JobProgress.Stage(0, 0, vertices.get(i).tasks().size());
            boolean pruning = vertices.get(i).deferred() && stage.tasks() == 0;
            parts.add(vertices.get(i).name() + ": " + (pruning ? "-/-" : stage));
        }
        return String.join(", ", parts);
    }

    /** Whether both standard output and standard error are a terminal, as Hive's own test for in-place updates. */
    static final class Terminal {
        private Terminal() {
        }

        static boolean isTerminal() {
            if (System.getProperty("os.name", "").startsWith("Windows")) {
                return false;
            }
            try {
                return CLibrary.isatty(CLibrary.STDOUT_FILENO) != 0 && CLibrary.isatty(CLibrary.STDERR_FILENO) != 0;
            } catch (NoClassDefFoundError | UnsatisfiedLinkError e) {
                // Jansi's native library is not there for this platform: no terminal to draw on.
                return false;
            }
        }
    }
}
