package org.datampi.hive.client;

import java.util.Locale;

/**
 * When a datampi stage passed its milestones, from the ranks' progress records as the Hive JVM saw them
 * (System.nanoTime).
 * A milestone not reached (a failed job) is 0.
 *
 * @param submitted the job was given to the ranks (for new ranks: mpidrun started)
 * @param ranksUp the first O task started: the ranks are up (for new ranks: mpirun, JVMs and MPI_Init are done)
 * @param oPhaseDone every O task finished
 * @param aPhaseDone every A task finished
 * @param ended every rank is through the job (or the ranks ended)
 */
public record StageTimeline(long submitted, long ranksUp, long oPhaseDone, long aPhaseDone, long ended) {
    /**
     * Where a stage's time went, for the console: Hive's submission (plan, splits), launch, O and A phases,
     * teardown, and Hive's commit (job-close: file moves, dynamic partitions, statistics).
     */
    public String describe(long taskStarted, long taskEnded) {
        return String.format(Locale.ROOT, "%.2f s: submit %.2f s, launch %.2f s, O phase %.2f s, A phase %.2f s, "
                + "teardown %.2f s, commit %.2f s", seconds(taskStarted, taskEnded), seconds(taskStarted, submitted),
                seconds(submitted, ranksUp), seconds(ranksUp, oPhaseDone), seconds(oPhaseDone, aPhaseDone),
                seconds(aPhaseDone, ended), seconds(ended, taskEnded));
    }

    /**
     * Where a DAG stage's time went: Hive's submission (plan, the client's splits), launch, the tasks of all its
     * vertices (which overlap: a vertex's tasks may start while another's run, and rank 0 makes pruned scans' splits
     * meanwhile, so no O or A phase), teardown and Hive's commit.
     */
    public String describeDag(long taskStarted, long taskEnded) {
        return String.format(Locale.ROOT, "%.2f s: submit %.2f s, launch %.2f s, tasks %.2f s, teardown %.2f s, "
                + "commit %.2f s", seconds(taskStarted, taskEnded), seconds(taskStarted, submitted),
                seconds(submitted, ranksUp), seconds(ranksUp, aPhaseDone), seconds(aPhaseDone, ended),
                seconds(ended, taskEnded));
    }

    private static double seconds(long from, long to) {
        return from == 0 || to == 0 ? 0 : Math.max(0, to - from) / 1e9;
    }
}
