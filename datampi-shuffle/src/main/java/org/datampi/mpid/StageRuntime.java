package org.datampi.mpid;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;

/**
 * What a program that schedules its own stages sees ({@link StagedProgram}, for DAGs of stages such as Hive's Tez
 * plans): the runtime calls {@link StagedProgram#runStages} once per job on every rank, after the job set-up
 * ({@link JobSetup}, where rank 0 plans the stages), and the program runs its stages in the same order on every rank.
 *
 * <p>A stage's tasks are either handed out by rank 0 ({@link #nextTask}, for tasks that read input splits) or fixed by
 * the program (for tasks fed by other stages, whose partitions must have a known rank). Pairs go to partitions of a
 * job-wide numbering, each received by the rank the sender names and kept there, sorted, in memory up to the
 * shuffle's budget and spilled beyond it, until the program releases it. A stage ends on every rank with
 * {@link #endStage}; {@link #awaitStage} returns once every rank has ended it, so once everything sent in it has
 * arrived. Ranks may go through the stages in different orders (each running whichever stage is ready:
 * {@link #stageEnded}, {@link #awaitStageEnds}), as long as no rank waits for a stage that needs one it has not
 * ended itself.
 *
 * <p>Every wait polls the job's health: a lost rank or a failed engine ends it with an exception. The stage calls
 * (nextTask, taskDone, endStage, awaitStage) come from the rank's main thread; rank 0 may plan a deferred stage
 * ({@link #planStage}) and any thread may follow stage ends ({@link #stageEnded}, {@link #stageEnds},
 * {@link #awaitStageEnds}) from threads of its own; senders and receivers may be made on a
 * task's own threads (a task runtime initializes its inputs and outputs in threads of its own), each then used by one
 * thread at a time. Every sender of a job serializes the same key type and order (the job's key order is one).
 */
public interface StageRuntime {
    int rank();

    int size();

    /** The name of this rank's host, as the host calls itself. */
    String host();

    /** A directory private to this rank and job, on this rank's host; removed when the job ends, even on failure. */
    Path localDir();

    /** The next task of a handed-out stage for this rank, or -1 when every task of it is handed out. */
    int nextTask(int stage);

    /**
     * Rank 0 plans a stage deferred in the job's set-up ({@link JobSetup#deferStage}): its tasks, each with the hosts
     * it would rather run on (empty: any). Until then the ranks asking for its tasks in {@link #nextTask} wait.
     *
     * @throws IllegalStateException on another rank, or for a stage that was not deferred or is planned already
     */
    void planStage(int stage, List<? extends Collection<String>> taskHosts);

    /** A task of the stage finished on this rank (rank 0 reports the job's progress). */
    void taskDone(int stage);

    /**
     * A task's sender of pairs (serialized with the types of {@code conf}, as {@link MPI_D#Init}'s) to partitions
     * {@code firstPartition} to {@code firstPartition + partitions - 1}; pair partition p (0-based) goes to rank
     * {@code rankOfPartition(p)}.
     */
    PairSender sender(Map<String, String> conf, int firstPartition, int partitions, IntUnaryOperator rankOfPartition);

    /** This rank sent everything of the stage: marks the end behind its last block on every channel. */
    void endStage(int stage);

    /** Waits until every rank has ended the stage. */
    void awaitStage(int stage);

    /** Whether every rank has ended the stage ({@link #awaitStage} would return at once). */
    boolean stageEnded(int stage);

    /**
     * How many times so far a rank ended a stage, as this rank heard it: for a program that runs whichever stage is
     * ready, to wait with {@link #awaitStageEnds} for the next end without missing one that comes in between.
     */
    long stageEnds();

    /** Waits until this rank has heard of more stage ends than {@code seen} ({@link #stageEnds}). */
    void awaitStageEnds(long seen);

    /** The pairs this rank received for a partition, merged in key order (the types of {@code conf}). */
    PairReceiver receiver(Map<String, String> conf, int partition);

    /** Frees what this rank received for a partition, in memory and on disk. */
    void release(int partition);

    /** The bytes of received data this rank has spilled to its local disk in this job so far. */
    long spilledBytes();
}
