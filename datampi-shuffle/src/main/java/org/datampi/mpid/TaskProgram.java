package org.datampi.mpid;

/**
 * A program of O and A tasks, the paper's common mode: {@link #runTask} runs once per scheduled task (mpidrun's -O
 * and -A counts) with the task bound to {@link MPI_D}, so that it calls {@code MPI_D.Init}, {@code Send} or
 * {@code Recv}, and {@code Finalize} as the paper's programs do. O tasks run as rank 0 hands them out, then, once
 * every rank has sent all its data, the A tasks each rank owns; tasks of one rank run one after another, on one
 * thread.
 */
public non-sealed interface TaskProgram extends RankProgram {
    /** One O or A task; which one, MPI_D's communicators say. */
    void runTask(String[] args) throws Exception;
}
