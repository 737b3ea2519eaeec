package org.datampi.hive.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.hadoop.hive.common.log.ProgressMonitor;
import org.datampi.hive.dag.DagEdge;
import org.datampi.hive.dag.DagJob;
import org.datampi.hive.dag.DagVertex;
import org.datampi.status.JobProgress;

/**
 * A DAG stage's progress at one moment in Hive's {@link ProgressMonitor} form, the table Hive's CLI renders in place
 * ({@code InPlaceUpdate}) and HiveServer2 hands to its clients, with the columns of Hive on Tez's: per vertex its mode
 * (O tasks: handed out by rank 0, reading splits; A tasks: placed on the ranks that hold their partitions), status,
 * tasks in all, completed, running, pending, failed and killed.
 *
 * <p>Rank 0 sees running tasks only for the vertices it hands out; an A vertex whose inputs are all complete is
 * RUNNING (every rank goes on to it), its tasks pending until they complete. A failed or cancelled stage marks its
 * unfinished vertices FAILED or KILLED (the failure itself names vertex and task).
 */
final class DagProgressMonitor implements ProgressMonitor {
    /** The stage's state, as Tez's DAG states. */
    enum State {
        RUNNING, SUCCEEDED, FAILED, KILLED
    }

    private static final int NAME_WIDTH = 16;

    private final List<List<String>> rows;
    private final String footer;
    private final long startTime;
    private final State state;
    private final double progressed;

    private DagProgressMonitor(List<List<String>> rows, String footer, long startTime, State state,
            double progressed) {
        this.rows = List.copyOf(rows);
        this.footer = footer;
        this.startTime = startTime;
        this.state = state;
        this.progressed = progressed;
    }

    /**
     * @param progress the ranks' last report: stage i is vertex i
     * @param startTime when the stage started, in milliseconds of the epoch
     */
    static DagProgressMonitor of(DagJob dag, JobProgress progress, long startTime, State state) {
        requireNonNull(dag, "dag is null");
        requireNonNull(progress, "progress is null");
        requireNonNull(state, "state is null");
        List<DagVertex> vertices = dag.vertices();
        List<List<String>> rows = new ArrayList<>();
        int done = 0;
        int total = 0;
        int completedVertices = 0;
        for (int i = 0; i < vertices.size(); i++) {
            DagVertex vertex = vertices.get(i);
            JobProgress.Stage stage = stageOf(progress, i, vertex);
            // A vertex whose splits wait for dynamic partition pruning has no tasks until they are made.
            boolean initializing = vertex.deferred() && stage.tasks() == 0 && state == State.RUNNING;
            boolean complete = !initializing && stage.done() >= stage.tasks();
            String status;
            if (initializing) {
                status = "INITIALIZING";
            } else if (complete) {
                status = "SUCCEEDED";
                completedVertices++;
            } else if (state == State.FAILED) {
                status = "FAILED";
            } else if (state == State.KILLED) {
                status = "KILLED";
            } else if (stage.done() > 0 || stage.running() > 0 || (!vertex.handedOut() && inputsComplete(dag,
                    progress, vertex))) {
                status = "RUNNING";
            } else {
                status = "INITED";
            }
            int unfinished = stage.tasks() - stage.done() - stage.running();
            boolean ended = state == State.FAILED || state == State.KILLED;
            rows.add(List.of(nameWithProgress(vertex.name(), stage), vertex.handedOut() ? "O tasks" : "A tasks",
                    status, String.valueOf(stage.tasks()), String.valueOf(stage.done()),
                    String.valueOf(ended ? 0 : stage.running()), String.valueOf(ended ? 0 : unfinished),
                    "0", String.valueOf(ended && !complete ? stage.tasks() - stage.done() : 0)));
            done += stage.done();
            total += stage.tasks();
        }
        String footer = String.format(Locale.ROOT, "VERTICES: %02d/%02d", completedVertices, vertices.size());
        return new DagProgressMonitor(rows, footer, startTime, state, total == 0 ? 0 : (double) done / total);
    }

    private static JobProgress.Stage stageOf(JobProgress progress, int index, DagVertex vertex) {
        return index < progress.stages().size() ? progress.stages().get(index)
                : new JobProgress.Stage(0, 0, vertex.tasks().size());
    }

    private static boolean inputsComplete(DagJob dag, JobProgress progress, DagVertex vertex) {
        for (DagEdge input : dag.inputsOf(vertex.name())) {
            int source = dag.stageOf(input.source());
            JobProgress.Stage stage = stageOf(progress, source, dag.vertices().get(source));
            if (stage.done() < stage.tasks()) {
                return false;
            }
        }
        return true;
    }

    /** The vertex's name followed by dots for the share of its tasks done, as Tez's first column. */
    private static String nameWithProgress(String name, JobProgress.Stage stage) {
        if (name.length() >= NAME_WIDTH) {
            return name.substring(0, NAME_WIDTH - 2) + "..";
        }
        int room = NAME_WIDTH - name.length() - 1;
        int dots = stage.tasks() == 0 ? 0 : room * stage.done() / stage.tasks();
        return name + " " + ".".repeat(dots);
    }

    @Override
    public List<String> headers() {
        return List.of("VERTICES", "MODE", "STATUS", "TOTAL", "COMPLETED", "RUNNING", "PENDING", "FAILED", "KILLED");
    }

    @Override
    public List<List<String>> rows() {
        return rows;
    }

    @Override
    public String footerSummary() {
        return footer;
    }

    @Override
    public long startTime() {
        return startTime;
    }

    @Override
    public String executionStatus() {
        return state.name();
    }

    @Override
    public double progressedPercentage() {
        return progressed;
    }
}
