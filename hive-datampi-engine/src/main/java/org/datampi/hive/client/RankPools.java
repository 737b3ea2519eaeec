package org.datampi.hive.client;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
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
 * Ctrl-C through Hive's interrupt callbacks) or its deadline passes. Waiting stages get groups in the order they came,
 * whichever session they are of: only the first in the queue may take one, so no session's stage is passed over
 * again and again (HiveServer2's sessions share the groups), and a stage waits for the stages ahead of it, not for
 * chance. A group that finishes its job or ends wakes the queue at once ({@link RankPool}'s freed listener); the
 * waiting stages also wake every {@value #POLL_MILLIS} ms, to check whether they were stopped or are past their
 * deadline. The count is the first stage's own session's limit, which an administrator sets once for all sessions
 * (hive-site.xml, locked by hive.conf.restricted.list): a session that lowers it holds the queue to its own count
 * while its stage is first.
 */
final class RankPools {
    private static final long POLL_MILLIS = 200;
    private static final List<RankPool> RUNNING = new ArrayList<>();
    /** The stages waiting for a group, first come first: each its own ticket, the first the one that may take one. */
    private static final Deque<Object> QUEUE = new ArrayDeque<>();
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
     * Gives the job to a group of ranks, waiting in the queue while MAX_GROUPS groups are busy or stages that came
     * first wait: ON_WAIT is told once, with how many stages are ahead of this one, when the stage starts waiting;
     * STOPPED is asked at every wake-up. Fails, naming the setting, when the stage is stopped or TIMEOUT_SECONDS pass
     * first.
     */
    static MpidrunJob submit(GroupLaunch launch, boolean reuse, int maxGroups, String jobId,
            List<String> jobArguments, IntConsumer onWait, BooleanSupplier stopped, long timeoutSeconds) {
        return submit(launch, reuse, maxGroups, jobId, jobArguments, onWait, stopped, timeoutSeconds, POLL_MILLIS);
    }

    /** The same, the waiting stages' own wake-up every POLL_MILLIS (a test's long one shows the groups wake them). */
    static MpidrunJob submit(GroupLaunch launch, boolean reuse, int maxGroups, String jobId,
            List<String> jobArguments, IntConsumer onWait, BooleanSupplier stopped, long timeoutSeconds,
            long pollMillis) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        AtomicBoolean interrupted = new AtomicBoolean();
        HiveInterruptCallback interrupt = () -> interrupted.set(true);
        Object ticket = new Object();
        String busy = allBusy(maxGroups);
        boolean waiting = false;
        try {
            synchronized (RankPools.class) {
                QUEUE.addLast(ticket);
                try {
                    while (true) {
                        if (stopped.getAsBoolean() || interrupted.get() || Thread.currentThread().isInterrupted()) {
                            throw new IllegalStateException("datampi: job " + jobId + " was stopped while it waited "
                                    + "for a free group of ranks: " + busy);
                        }
                        if (QUEUE.peekFirst() == ticket) {
                            Optional<MpidrunJob> job = trySubmit(launch, reuse, maxGroups, jobId, jobArguments);
                            if (job.isPresent()) {
                                return job.get();
                            }
                        }
                        if (!waiting) {
                            waiting = true;
                            HiveInterruptUtils.add(interrupt);
                            onWait.accept(QUEUE.size() - 1);
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
            if (waiting) {
                HiveInterruptUtils.remove(interrupt);
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
