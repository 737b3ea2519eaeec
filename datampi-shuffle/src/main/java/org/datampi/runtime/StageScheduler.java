package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

import org.datampi.mpid.HostNames;
import org.datampi.status.JobProgress;

/**
 * Rank 0's scheduler of a staged job ({@link org.datampi.mpid.StageRuntime}): each handed-out stage places its tasks
 * as a common mode job places its O tasks (an {@link OTaskScheduler} of its own: host-local first, then the lowest task
 * left), and every task started or finished updates the job's progress ({@link JobProgress}): each stage's
 * tasks, and handed-out stages as O tasks and the others as A tasks. A stage may be planned late ({@link #defer}, then
 * {@link #planDeferred} while the job runs, when its tasks depend on what earlier stages found): until then a rank
 * that asks for one of its tasks is told to ask again, and the progress counts it with no tasks.
 */
final class StageScheduler implements TaskScheduler {
    private final Consumer<JobProgress> progress;
    private final List<String> hostOfRank;
    private final Duration localityWait;
    private final Map<Integer, Stage> stages = new TreeMap<>();
    private boolean open;
    private boolean started;

    private static final class Stage {
        final int tasks;
        final OTaskScheduler handedOut;
        /** A deferred stage not planned yet: its tasks are unknown, and a rank asking for one asks again. */
        final boolean pending;
        int granted;
        int done;

        Stage(int tasks, OTaskScheduler handedOut, boolean pending) {
            this.tasks = tasks;
            this.handedOut = handedOut;
            this.pending = pending;
        }
    }

    /**
     * @param progress told the job's progress whenever a task starts or ends
     * @param localityWait how long each handed-out stage holds a task for the ranks of the hosts it prefers
     */
    StageScheduler(Consumer<JobProgress> progress, List<String> hostOfRank, Duration localityWait) {
        this.progress = requireNonNull(progress, "progress is null");
        this.hostOfRank = List.copyOf(hostOfRank);
        this.localityWait = requireNonNull(localityWait, "localityWait is null");
        // On one host every task is local to every rank: nothing to wait for before the first grant.
        this.open = hostOfRank.stream().map(HostNames::shortName).distinct().count() <= 1;
    }

    synchronized void plan(int stage, int tasks, boolean handedOut) {
        if (stages.containsKey(stage)) {
            throw new IllegalStateException("Stage " + stage + " is planned twice");
        }
        stages.put(stage, planned(stage, tasks, handedOut));
    }

    /** A handed-out stage whose tasks are planned while the job runs ({@link #planDeferred}). */
    synchronized void defer(int stage) {
        if (stages.containsKey(stage)) {
            throw new IllegalStateException("Stage " + stage + " is planned twice");
        }
        stages.put(stage, new Stage(0, null, true));
    }

    /** The tasks of a deferred stage, each with the hosts it prefers (empty: any). */
    synchronized void planDeferred(int stage, List<? extends Collection<String>> taskHosts) {
        Stage deferred = stages.get(stage);
        if (deferred == null || !deferred.pending) {
            throw new IllegalStateException("Stage " + stage + " was not deferred in the job's set-up, or is "
                    + "planned already");
        }
        Stage planned = planned(stage, taskHosts.size(), true);
        for (int task = 0; task < taskHosts.size(); task++) {
            planned.handedOut.prefer(task, taskHosts.get(task));
        }
        stages.put(stage, planned);
        report();
    }

    private Stage planned(int stage, int tasks, boolean handedOut) {
        if (tasks < 0) {
            throw new IllegalArgumentException("Stage " + stage + " cannot have " + tasks + " tasks");
        }
        // A placement of its own per handed-out stage, open at once (this scheduler holds every request until it
        // opens); the progress is this scheduler's to report.
        OTaskScheduler placement = null;
        if (handedOut) {
            placement = new OTaskScheduler(tasks, 0, ignored -> { }, hostOfRank, localityWait);
            placement.open();
        }
        return new Stage(tasks, placement, false);
    }

    @Override
    public synchronized void open() {
        open = true;
    }

    @Override
    public synchronized void prefer(int stage, int task, Collection<String> hosts) {
        handedOut(stage).prefer(task, hosts);
    }

    @Override
    public synchronized int grant(int stage, int rank, int finishedTasks) {
        if (!open || stage(stage).pending) {
            return ASK_AGAIN;
        }
        if (!started) {
            // The 0% line: the first task starts now, so every rank is up.
            started = true;
            report();
        }
        if (finishedTasks > 0) {
            count(stage, finishedTasks);
        }
        int task = handedOut(stage).grant(rank, 0);
        if (task >= 0) {
            // A task started: the stage's running count changed.
            stage(stage).granted++;
            report();
        }
        return task;
    }

    @Override
    public synchronized void taskDone(int stage) {
        count(stage, 1);
    }

    @Override
    public synchronized String locality() {
        return String.join(", ", stages.entrySet().stream().filter(entry -> entry.getValue().handedOut != null)
                .map(entry -> "stage " + entry.getKey() + ": " + entry.getValue().handedOut.locality()).toList());
    }

    private void count(int stage, int tasks) {
        Stage counted = stage(stage);
        counted.done += tasks;
        report();
    }

    private OTaskScheduler handedOut(int stage) {
        OTaskScheduler placement = stage(stage).handedOut;
        if (placement == null) {
            throw new IllegalStateException("Stage " + stage + "'s tasks are not handed out by rank 0");
        }
        return placement;
    }

    private Stage stage(int stage) {
        Stage planned = stages.get(stage);
        if (planned == null) {
            throw new IllegalStateException("Stage " + stage + " was not planned in the job's set-up");
        }
        return planned;
    }

    /** The progress: per stage, and handed-out stages as O tasks, the others as A tasks. */
    private void report() {
        int oTasks = 0;
        int oDone = 0;
        int aTasks = 0;
        int aDone = 0;
        List<JobProgress.Stage> stageProgress = new ArrayList<>();
        for (Stage stage : stages.values()) {
            if (stage.handedOut != null) {
                oTasks += stage.tasks;
                oDone += stage.done;
            } else {
                aTasks += stage.tasks;
                aDone += stage.done;
            }
            // Rank 0 sees only its own stages' tasks start: the running count of a placed stage is unknown (0).
            stageProgress.add(new JobProgress.Stage(stage.done, Math.max(0, stage.granted - stage.done),
                    stage.tasks));
        }
        progress.accept(new JobProgress(oDone, oTasks, aDone, aTasks, stageProgress));
    }
}
