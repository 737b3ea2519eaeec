package org.datampi.hive.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

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
 * ended: a stage that finds them all busy waits, polling every {@value #POLL_MILLIS} ms, until one is free, the stage
 * is stopped (the caller's condition, or Ctrl-C through Hive's interrupt callbacks) or its deadline passes.
 */
final class RankPools {
    private static final long POLL_MILLIS = 200;
    private static final List<RankPool> RUNNING = new ArrayList<>();
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
     * Gives the job to a group of ranks, waiting while MAX_GROUPS groups are busy: ON_WAIT is told once when the
     * stage starts waiting; STOPPED is asked at every poll. Fails, naming the setting, when the stage is stopped or
     * TIMEOUT_SECONDS pass first.
     */
    static MpidrunJob submit(GroupLaunch launch, boolean reuse, int maxGroups, String jobId,
            List<String> jobArguments, Runnable onWait, BooleanSupplier stopped, long timeoutSeconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        AtomicBoolean interrupted = new AtomicBoolean();
        HiveInterruptCallback interrupt = () -> interrupted.set(true);
        boolean waiting = false;
        try {
            synchronized (RankPools.class) {
                while (true) {
                    Optional<MpidrunJob> job = trySubmit(launch, reuse, maxGroups, jobId, jobArguments);
                    if (job.isPresent()) {
                        return job.get();
                    }
                    if (!waiting) {
                        waiting = true;
                        HiveInterruptUtils.add(interrupt);
                        onWait.run();
                    }
                    String busy = allBusy(maxGroups);
                    if (stopped.getAsBoolean() || interrupted.get() || Thread.currentThread().isInterrupted()) {
                        throw new IllegalStateException("datampi: job " + jobId + " was stopped while it waited for "
                                + "a free group of ranks: " + busy);
                    }
                    if (System.nanoTime() - deadline > 0) {
                        throw new IllegalStateException("datampi: job " + jobId + " did not get a group of ranks "
                                + "within " + timeoutSeconds + " s: " + busy);
                    }
                    try {
                        RankPools.class.wait(POLL_MILLIS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        } finally {
            if (waiting) {
                HiveInterruptUtils.remove(interrupt);
            }
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
        if (RUNNING.size() >= maxGroups) {
            return Optional.empty();
        }
        RankPool once = start(launch);
        MpidrunJob job = submitTo(once, jobId, jobArguments);
        once.close();
        return Optional.of(job);
    }

    private static RankPool start(GroupLaunch launch) {
        RankPool pool = RankPool.start(launch, RankPool.IDLE_SECONDS);
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
