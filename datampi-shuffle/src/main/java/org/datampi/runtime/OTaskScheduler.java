package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.function.Consumer;

import org.datampi.mpid.HostNames;
import org.datampi.status.JobProgress;

/**
 * Rank 0's scheduler of O tasks: a process that asks gets an O task, so that an O task starts on a process as soon as
 * one is free (Hive's O tasks end at irregular times). A task may prefer hosts (where its input's blocks are, given
 * by the program's job set-up); a process gets a task that prefers its host while there is one, else the lowest
 * task left, as Hadoop's schedulers place map tasks node-local first. It also counts finished O and A tasks and
 * reports the job's progress.
 *
 * <p>Thread-safe: the engine's progress thread grants, rank 0's main thread sets preferences before the job starts.
 */
final class OTaskScheduler implements TaskScheduler {
    private final int oTasks;
    private final int aTasks;
    private final Consumer<JobProgress> progress;
    private final List<String> hostOfRank;
    private final boolean[] granted;
    private final Map<String, Queue<Integer>> tasksByHost = new HashMap<>();
    private final Map<Integer, List<String>> preferredHosts = new HashMap<>();
    private int lowestLeft;
    private int grants;
    private int hostLocalGrants;
    private int oTasksDone;
    private int aTasksDone;

    /**
     * @param progress told the job's progress whenever a task starts or ends
     * @param hostOfRank each rank's host, as the group's ranks reported them ({@link RankHosts})
     */
    OTaskScheduler(int oTasks, int aTasks, Consumer<JobProgress> progress, List<String> hostOfRank) {
        this.oTasks = oTasks;
        this.aTasks = aTasks;
        this.progress = requireNonNull(progress, "progress is null");
        this.hostOfRank = hostOfRank.stream().map(HostNames::shortName).toList();
        this.granted = new boolean[oTasks];
    }

    @Override
    public void prefer(int stage, int task, Collection<String> hosts) {
        checkStage(stage, O_STAGE);
        prefer(task, hosts);
    }

    @Override
    public int grant(int stage, int rank, int finishedTasks) {
        checkStage(stage, O_STAGE);
        return grant(rank, finishedTasks);
    }

    @Override
    public void taskDone(int stage) {
        checkStage(stage, A_STAGE);
        aTaskDone();
    }

    private static void checkStage(int stage, int expected) {
        if (stage != expected) {
            throw new IllegalStateException("A common mode job has no stage " + stage + " here (expected " + expected
                    + ")");
        }
    }

    /** O task {@code task} would rather run on one of these hosts (names as the hosts call themselves). */
    synchronized void prefer(int task, Collection<String> hosts) {
        if (task < 0 || task >= oTasks) {
            throw new IllegalArgumentException("O task " + task + " is not one of the job's " + oTasks);
        }
        List<String> names = hosts.stream().map(HostNames::shortName).distinct().toList();
        preferredHosts.put(task, names);
        for (String host : names) {
            tasksByHost.computeIfAbsent(host, key -> new ArrayDeque<>()).add(task);
        }
    }

    /**
     * Returns the O task for {@code rank}, which finished finishedTasks since it last asked, or -1 when none is left.
     */
    synchronized int grant(int rank, int finishedTasks) {
        String host = hostOfRank.get(rank);
        if (grants == 0 && oTasksDone == 0) {
            // The 0% line: the first O task starts now, so every rank is up (launchers time the start-up by it).
            report();
        }
        if (finishedTasks > 0) {
            oTasksDone += finishedTasks;
            report();
        }
        int task = nextOn(host);
        if (task < 0) {
            while (lowestLeft < oTasks && granted[lowestLeft]) {
                lowestLeft++;
            }
            task = lowestLeft < oTasks ? lowestLeft : -1;
        }
        if (task >= 0) {
            granted[task] = true;
            grants++;
            if (preferredHosts.getOrDefault(task, List.of()).contains(host)) {
                hostLocalGrants++;
            }
        }
        return task;
    }

    @Override
    public synchronized String locality() {
        return hostLocalGrants + " of " + preferredHosts.size();
    }

    private int nextOn(String host) {
        Queue<Integer> local = tasksByHost.get(host);
        while (local != null && !local.isEmpty()) {
            int task = local.poll();
            if (!granted[task]) {
                return task;
            }
        }
        return -1;
    }

    synchronized void aTaskDone() {
        aTasksDone++;
        report();
        notifyAll();
    }

    /** Waits until every A task has finished, checking health between waits. */
    synchronized void awaitATasks(Runnable healthCheck) throws InterruptedException {
        while (aTasksDone < aTasks) {
            wait(100);
            healthCheck.run();
        }
    }

    private void report() {
        progress.accept(new JobProgress(oTasksDone, oTasks, aTasksDone, aTasks, List.of()));
    }
}
