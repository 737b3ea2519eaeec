package org.datampi.hive.client;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;

import org.apache.hadoop.hive.common.HiveInterruptCallback;
import org.apache.hadoop.hive.common.HiveInterruptUtils;
import org.datampi.hive.conf.DataMPISettings;

/**
 * Where a stage runs: on this JVM's warm {@link RankPool} when hive.datampi.reuse.ranks is on and the pool was
 * started with the stage's launch settings (processes, heap, MPI, hostfile, shuffle settings), else on ranks started
 * for it alone. A changed setting replaces the warm pool; a stage submitted while the warm pool runs another (Hive's
 * parallel stages, a second session) gets ranks of its own. A warm pool close to its ranks' own idle limit is
 * replaced too ({@link RankPool#hasEnded}).
 *
 * <p>At most {@link DataMPISettings#GROUPS_MAX} groups run at once, warm or not, counted until their processes have
 * ended: a stage that finds them all busy waits until one is free, the stage is stopped (the caller's condition, or
 * Ctrl-C through Hive's interrupt callbacks) or its deadline passes. Waiting stages form one queue, whichever session
 * they are of (HiveServer2's sessions share the groups), and only the first in it may take a group. The first is the
 * smallest by Hive's estimate ({@link StageSize}; stages of the same size, or of none, in the order they came), so
 * that a short query waits for the stage that runs, not for every long one queued before it. A stage passed
 * {@value #MOST_PASSES} times by stages that came after it is first whatever its size (the oldest such first), so
 * that no stage waits for ever behind smaller ones. A group that finishes its job or ends wakes the queue at once
 * ({@link RankPool}'s freed listener); the waiting stages also wake every {@value #POLL_MILLIS} ms, to check whether
 * they were stopped or are past their deadline. The count is the first stage's own session's limit, which an
 * administrator sets once for all sessions (hive-site.xml, locked by hive.conf.restricted.list): a session that lowers
 * it holds the queue to its own count while its stage is first. A stage that runs again after losing a rank
 * (hive.datampi.stage.retries) queues anew.
 */
final class RankPools {
    private static final long POLL_MILLIS = 200;
    /**
     * How many stages that came later may take a group before a waiting stage, whatever its size: it waits for at most
     * that many stages more than first come, first served would make it wait for.
     */
    static final int MOST_PASSES = 8;
    private static final List<RankPool> RUNNING = new ArrayList<>();
    /** The stages waiting for a group, in the order they came ({@link #first} says which may take one). */
    private static final List<Waiting> QUEUE = new ArrayList<>();
    private static long arrivals;
    // JVM-wide on purpose: the groups hold the hosts' cores and memory, which every session of this Hive JVM
    // (HiveServer2's many) shares, so the warm group and the count of groups belong to the JVM, not to a session.
    private static RankPool warm;
    private static GroupLaunch warmLaunch;

    private RankPools() {
    }

    /** Why a stage waits, or failed waiting, for a group: the console's words for it. */
    static String allBusy(int maxGroups) {
        return "all " + maxGroups + " groups of ranks of this JVM are busy (" + DataMPISettings.GROUPS_MAX + "="
                + maxGroups + ")";
    }

    /**
     * Gives the job, of SIZE, to a group of ranks, waiting in the queue while MAX_GROUPS groups are busy or stages
     * served before it wait: ON_WAIT is told once, with how many stages are ahead of this one, when the stage starts
     * waiting; STOPPED is asked at every wake-up. Fails, naming the setting, when the stage is stopped or
     * TIMEOUT_SECONDS pass first.
     */
    static MpidrunJob submit(GroupLaunch launch, boolean reuse, int maxGroups, String jobId,
            List<String> jobArguments, StageSize size, IntConsumer onWait, BooleanSupplier stopped,
            long timeoutSeconds) {
        return submit(launch, reuse, maxGroups, jobId, jobArguments, size, onWait, stopped, timeoutSeconds,
                POLL_MILLIS);
    }

    /** The same, the waiting stages' own wake-up every POLL_MILLIS (a test's long one shows the groups wake them). */
    static MpidrunJob submit(GroupLaunch launch, boolean reuse, int maxGroups, String jobId,
            List<String> jobArguments, StageSize size, IntConsumer onWait, BooleanSupplier stopped,
            long timeoutSeconds, long pollMillis) {
        requireNonNull(size, "size is null");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        AtomicBoolean interrupted = new AtomicBoolean();
        // Ctrl-C wakes the waiting stage at once, as a freed group does, so that it leaves the queue to the next now.
        // Hive calls the callbacks holding its list's lock, which its add and remove take: they are called here
        // outside this class's lock, which wake takes, so that the two locks are never taken in the other order.
        HiveInterruptCallback interrupt = () -> {
            interrupted.set(true);
            wake();
        };
        String busy = allBusy(maxGroups);
        boolean waiting = false;
        HiveInterruptUtils.add(interrupt);
        try {
            synchronized (RankPools.class) {
                Waiting ticket = new Waiting(arrivals++, size);
                QUEUE.add(ticket);
                try {
                    while (true) {
                        if (stopped.getAsBoolean() || interrupted.get() || Thread.currentThread().isInterrupted()) {
                            throw new IllegalStateException("datampi: job " + jobId + " was stopped while it waited "
                                    + "for a free group of ranks: " + busy);
                        }
                        if (first() == ticket) {
                            Optional<MpidrunJob> job = trySubmit(launch, reuse, maxGroups, jobId, jobArguments);
                            if (job.isPresent()) {
                                passedBy(ticket);
                                return job.get();
                            }
                        }
                        if (!waiting) {
                            waiting = true;
                            onWait.accept(ahead(ticket));
                        }
                        if (System.nanoTime() - deadline > 0) {
                            throw new IllegalStateException("datampi: job " + jobId + " did not get a group of ranks "
                                    + "within " + timeoutSeconds + " s: " + busy);
                        }
                        try {
                            RankPools.class.wait(pollMillis);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                } finally {
                    // Given a group, stopped or out of time: the next in the queue tries at once (there may be a
                    // group for it too, or this stage took none).
                    QUEUE.remove(ticket);
                    RankPools.class.notifyAll();
                }
            }
        } finally {
            HiveInterruptUtils.remove(interrupt);
        }
    }

    /** A waiting stage: when it came (the queue's count), its size, and how many that came later took a group first. */
    private static final class Waiting {
        private final long arrival;
        private final StageSize size;
        private int passes;

        Waiting(long arrival, StageSize size) {
            this.arrival = arrival;
            this.size = size;
        }

        /** Whether this stage is served before OTHER. */
        boolean before(Waiting other) {
            boolean due = passes >= MOST_PASSES;
            if (due != other.passes >= MOST_PASSES) {
                return due;
            }
            if (!due && size.rows() != other.size.rows()) {
                return size.rows() < other.size.rows();
            }
            return arrival < other.arrival;
        }
    }

    /** The waiting stage that may take the next group. */
    private static Waiting first() {
        Waiting first = QUEUE.get(0);
        for (Waiting waiting : QUEUE) {
            if (waiting.before(first)) {
                first = waiting;
            }
        }
        return first;
    }

    /** How many waiting stages are served before TICKET as the queue stands. */
    private static int ahead(Waiting ticket) {
        return (int) QUEUE.stream().filter(waiting -> waiting != ticket && waiting.before(ticket)).count();
    }

    /** SERVED took a group: every stage that came before it and still waits was passed once more. */
    private static void passedBy(Waiting served) {
        for (Waiting waiting : QUEUE) {
            if (waiting.arrival < served.arrival) {
                waiting.passes++;
            }
        }
    }

    /**
     * A group finished its job or ended: the first waiting stage tries again now. Called on the group's status and
     * output threads, which wait here while a stage holds the queue (briefly: a trySubmit starts a process at most).
     */
    private static void wake() {
        synchronized (RankPools.class) {
            RankPools.class.notifyAll();
        }
    }

    private static Optional<MpidrunJob> trySubmit(GroupLaunch launch, boolean reuse, int maxGroups,
            String jobId, List<String> jobArguments) {
        RUNNING.removeIf(pool -> !pool.isRunning());
        if (reuse) {
            boolean sameLaunch = launch.equals(warmLaunch);
            if (warm != null && sameLaunch && warm.isIdle()) {
                Optional<MpidrunJob> job = warm.trySubmit(jobId, jobArguments);
                if (job.isPresent()) {
                    return job;
                }
            }
            if (warm != null && (warm.hasEnded() || !sameLaunch && warm.isIdle())) {
                // Counted until its ranks have ended.
                closeWarm();
            }
            if (warm == null && RUNNING.size() < maxGroups) {
                warm = start(launch);
                warmLaunch = launch;
                return Optional.of(submitTo(warm, jobId, jobArguments));
            }
        }
        if (RUNNING.size() >= maxGroups && warm != null && warm.isIdle()) {
            // A stage that may not use the warm group (hive.datampi.reuse.ranks=false) at the head of the queue: the
            // idle warm group gives way, as for a stage with other settings, rather than hold the queue until its
            // idle limit.
            closeWarm();
        }
        if (RUNNING.size() >= maxGroups) {
            return Optional.empty();
        }
        RankPool once = start(launch);
        try {
            return Optional.of(submitTo(once, jobId, jobArguments));
        } finally {
            once.close();
        }
    }

    private static RankPool start(GroupLaunch launch) {
        RankPool pool = RankPool.start(launch, RankPool.IDLE_SECONDS, RankPools::wake);
        RUNNING.add(pool);
        return pool;
    }

    private static MpidrunJob submitTo(RankPool pool, String jobId, List<String> jobArguments) {
        return pool.trySubmit(jobId, jobArguments)
                .orElseThrow(() -> new IllegalStateException("A new rank pool refused job " + jobId));
    }

    static synchronized void closeWarm() {
        if (warm != null) {
            warm.close();
            warm = null;
            warmLaunch = null;
        }
    }
}
