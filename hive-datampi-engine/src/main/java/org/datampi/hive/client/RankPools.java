package org.datampi.hive.client;

import java.util.List;

/**
 * Where a stage runs: on this JVM's warm {@link RankPool} when hive.datampi.reuse.ranks is on and the pool was
 * started with the stage's launch settings (processes, heap, MPI, hostfile, shuffle settings), else on ranks started
 * for it alone. A changed setting replaces the warm pool; a stage submitted while the warm pool runs another (Hive's
 * parallel stages, a second session) gets ranks of its own rather than waiting. A warm pool close to its ranks' own
 * idle limit is replaced too ({@link RankPool#hasEnded}).
 */
final class RankPools {
    private static RankPool warm;
    private static List<String> warmCommand;

    private RankPools() {
    }

    static synchronized MpidrunJob submit(List<String> launchCommand, boolean reuse, String jobId,
            List<String> jobArguments) {
        if (reuse) {
            boolean sameLaunch = launchCommand.equals(warmCommand);
            if (warm != null && sameLaunch && warm.isIdle()) {
                var job = warm.trySubmit(jobId, jobArguments);
                if (job.isPresent()) {
                    return job.get();
                }
            }
            if (warm == null || warm.hasEnded() || !sameLaunch && warm.isIdle()) {
                closeWarm();
                warm = RankPool.start(launchCommand, RankPool.IDLE_SECONDS);
                warmCommand = List.copyOf(launchCommand);
                return warm.trySubmit(jobId, jobArguments)
                        .orElseThrow(() -> new IllegalStateException("A new rank pool refused job " + jobId));
            }
        }
        RankPool once = RankPool.start(launchCommand, RankPool.IDLE_SECONDS);
        MpidrunJob job = once.trySubmit(jobId, jobArguments)
                .orElseThrow(() -> new IllegalStateException("A new rank pool refused job " + jobId));
        once.close();
        return job;
    }

    static synchronized void closeWarm() {
        if (warm != null) {
            warm.close();
            warm = null;
            warmCommand = null;
        }
    }
}
