package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import org.datampi.mpid.HostNames;
import org.datampi.shuffle.ShuffleSettings;
import org.datampi.status.JobProgress;

/**
 * Rank 0's scheduler of O tasks: a process that asks gets an O task, so that an O task starts on a process as soon as
 * one is free (Hive's O tasks end at irregular times). A task may prefer hosts (where its input's blocks are, given
 * by the program's job set-up); a process gets a task that prefers its host while there is one, else the lowest
 * task left, as Hadoop's schedulers place map tasks node-local first. It also counts finished O and A tasks and
 * reports the job's progress.
 *
 * <p>A task may also prefer a rank ({@link HostNames#ofRank}: the rank whose cache holds its split's data); a rank
 * gets the tasks that prefer it before those that prefer its host, and such a task is not held for its rank: a rank
 * with nothing of its own left takes another's rather than wait (a cache miss costs less than an idle core, and a
 * rank may be waiting in another stage of the job, for a task held for this one). The lowest task left goes first,
 * so the same tasks tend to go to the same rank from one query to the next.
 *
 * <p>Delay scheduling (Zaharia et al., as Hadoop's schedulers and Tez's locality delay do it): at a stage's start the
 * ranks ask at slightly different times, and a rank whose first task was quick would otherwise take a task that
 * prefers a host whose ranks have not asked yet, leaving them a remote read in exchange. So a task that prefers
 * hosts is held for them while a rank on one of them has not asked yet, for at most the locality wait after the
 * stage's first request ({@link ShuffleSettings#LOCALITY_WAIT}); a rank with nothing else to take is told to
 * {@linkplain TaskScheduler#ASK_AGAIN ask again}.
 * Once every rank of its hosts has asked (they are busy with tasks of their own), or the wait is over, any rank may
 * take it. On one host every rank is local to every task that prefers it: no rank ever waits there.
 *
 * <p>Thread-safe: the engine's progress thread grants, rank 0's main thread sets preferences before the job starts.
 */
final class OTaskScheduler implements TaskScheduler {
    private static final int MAX_ELSEWHERE_LISTED = 10;

    private final int oTasks;
    private final int aTasks;
    private final Consumer<JobProgress> progress;
    private final List<String> hostOfRank;
    private final LongSupplier nanoClock;
    private final long localityWaitNanos;
    private final boolean[] granted;
    private final boolean[] rankAsked;
    /** Per host, its ranks that have not asked for a task yet. */
    private final Map<String, Integer> ranksYetToAsk = new HashMap<>();
    private final Map<String, Queue<Integer>> tasksByHost = new HashMap<>();
    private final Map<Integer, List<String>> preferredHosts = new HashMap<>();
    /** The first tasks granted to a rank on none of their hosts, for the rank's log. */
    private final List<String> elsewhere = new ArrayList<>();
    private long firstRequestNanos;
    private boolean open;
    private boolean started;
    private int lowestLeft;
    private int hostLocalGrants;
    private int oTasksDone;
    private int aTasksDone;

    /**
     * @param progress told the job's progress whenever a task starts or ends
     * @param hostOfRank each rank's host, as the group's ranks reported them ({@link RankHosts})
     * @param localityWait how long a task that prefers hosts is held for their ranks ({@link
     *     ShuffleSettings#localityWaitSeconds})
     */
    OTaskScheduler(int oTasks, int aTasks, Consumer<JobProgress> progress, List<String> hostOfRank,
            Duration localityWait) {
        this(oTasks, aTasks, progress, hostOfRank, System::nanoTime, localityWait);
    }

    /** @param nanoClock the time in nanoseconds, for the locality wait (tests give their own) */
    OTaskScheduler(int oTasks, int aTasks, Consumer<JobProgress> progress, List<String> hostOfRank,
            LongSupplier nanoClock, Duration localityWait) {
        this.oTasks = oTasks;
        this.aTasks = aTasks;
        this.progress = requireNonNull(progress, "progress is null");
        this.hostOfRank = hostOfRank.stream().map(HostNames::shortName).toList();
        this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
        this.localityWaitNanos = requireNonNull(localityWait, "localityWait is null").toNanos();
        this.granted = new boolean[oTasks];
        this.rankAsked = new boolean[hostOfRank.size()];
        for (String host : this.hostOfRank) {
            ranksYetToAsk.merge(host, 1, Integer::sum);
        }
        // On one host every task is local to every rank: nothing to wait for before the first grant.
        this.open = ranksYetToAsk.size() <= 1;
    }

    @Override
    public synchronized void open() {
        open = true;
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
     * Returns the O task for {@code rank}, which finished finishedTasks since it last asked, -1 when none is left, or
     * {@link TaskScheduler#ASK_AGAIN} before {@link #open} (a group on several hosts) or when the tasks left are held
     * for the ranks of the hosts they prefer.
     */
    synchronized int grant(int rank, int finishedTasks) {
        if (!open) {
            // A rank that reports finished tasks has had one, so the scheduler was open then.
            return ASK_AGAIN;
        }
        String host = hostOfRank.get(rank);
        String itself = HostNames.ofRank(rank);
        if (!started) {
            // The 0% line: the first O task is asked for now, so every rank is up (launchers time the start-up by it).
            started = true;
            firstRequestNanos = nanoClock.getAsLong();
            report();
        }
        if (!rankAsked[rank]) {
            rankAsked[rank] = true;
            ranksYetToAsk.merge(host, -1, Integer::sum);
        }
        if (finishedTasks > 0) {
            oTasksDone += finishedTasks;
            report();
        }
        int task = nextOn(itself);
        if (task < 0) {
            task = nextOn(host);
        }
        if (task < 0) {
            task = lowestNotHeld();
        }
        if (task >= 0) {
            granted[task] = true;
            List<String> preferred = preferredHosts.getOrDefault(task, List.of());
            if (preferred.contains(host) || preferred.contains(itself)) {
                hostLocalGrants++;
            } else if (!preferred.isEmpty() && elsewhere.size() < MAX_ELSEWHERE_LISTED) {
                elsewhere.add(task + " (on " + preferred + ") to rank " + rank + " on " + host);
            }
        }
        return task;
    }

    @Override
    public synchronized String locality() {
        return hostLocalGrants + " of " + preferredHosts.size() + (elsewhere.isEmpty() ? ""
                : "; elsewhere: " + String.join(", ", elsewhere));
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

    /** The lowest task left that no rank yet to ask may want; ASK_AGAIN if all left are held; -1 if none is left. */
    private int lowestNotHeld() {
        while (lowestLeft < oTasks && granted[lowestLeft]) {
            lowestLeft++;
        }
        if (lowestLeft == oTasks) {
            return -1;
        }
        boolean waiting = nanoClock.getAsLong() - firstRequestNanos < localityWaitNanos;
        for (int task = lowestLeft; task < oTasks; task++) {
            if (!granted[task] && !(waiting && heldForItsHosts(task))) {
                return task;
            }
        }
        return ASK_AGAIN;
    }

    private boolean heldForItsHosts(int task) {
        return preferredHosts.getOrDefault(task, List.of()).stream()
                .anyMatch(host -> ranksYetToAsk.getOrDefault(host, 0) > 0);
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
