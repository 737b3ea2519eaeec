package org.datampi.runtime;

import java.util.Collection;

/**
 * Rank 0's part of a job's scheduling, as the other ranks reach it through the shuffle's control messages: tasks
 * handed out to ranks that ask, finished tasks counted for the job's progress. {@link OTaskScheduler} for a common
 * mode job (stage {@link #O_STAGE} its O tasks, {@link #A_STAGE} its A tasks), {@link StageScheduler} for a staged one.
 *
 * <p>Implementations are thread-safe: the engine's progress thread grants and counts while rank 0's main thread
 * plans.
 */
interface TaskScheduler {
    /** A common mode job's O tasks. */
    int O_STAGE = 0;
    /** A common mode job's A tasks. */
    int A_STAGE = 1;
    /**
     * A grant that is no task: rank 0's set-up is not done yet ({@link #open}), or the tasks left are held for ranks
     * of the hosts they prefer (delay scheduling, {@link OTaskScheduler}); the rank asks again shortly.
     */
    int ASK_AGAIN = -2;

    /**
     * Rank 0's job set-up is done, its preferences all given: tasks may be granted. Until then every request of a
     * group on several hosts is told to {@link #ASK_AGAIN}, so that no rank whose set-up ended first gets a task placed
     * without them (on one host every task is local to every rank, and a scheduler is open from the start).
     */
    void open();

    /** Task {@code task} of a handed-out stage would rather run on one of these hosts. */
    void prefer(int stage, int task, Collection<String> hosts);

    /**
     * Returns the next task of {@code stage} for {@code rank}, which finished finishedTasks of it since it last asked,
     * -1 when none is left, or {@link #ASK_AGAIN}.
     */
    int grant(int stage, int rank, int finishedTasks);

    /** A task of {@code stage} finished (one whose end was not reported by its next request). */
    void taskDone(int stage);

    /** How many handed-out tasks went to a host or rank they preferred, of how many that had a preference. */
    String locality();
}
