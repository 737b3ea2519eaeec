package org.datampi.mpid;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Collection;

/**
 * What a program's job set-up sees ({@link RankProgram#setUpJob}): the common-mode runtime calls it once per job on
 * every rank, all ranks together, before the job's first task, so that what every task of the job needs can be read
 * once and handed to the ranks over MPI (as Hadoop's distributed cache localizes a job's files once per node).
 */
public interface JobSetup {
    int rank();

    int size();

    /** The name of this rank's host, as the host calls itself. */
    String host();

    /**
     * O task {@code oTask} would rather run on one of {@code hosts} (where its input is): the scheduler gives it to a
     * rank there when one asks for work. Only rank 0 schedules, so only rank 0's calls count; elsewhere they are
     * ignored.
     */
    void preferHosts(int oTask, Collection<String> hosts);

    /**
     * A stage of a staged job ({@link StageRuntime}) has {@code tasks} tasks, handed out by rank 0 when
     * {@code handedOut}, else run where the program places them. Only rank 0's calls count; rank 0 plans every
     * stage before any rank can ask for a task (before a broadcast that every rank waits for, for example).
     */
    void planStage(int stage, int tasks, boolean handedOut);

    /**
     * A handed-out stage whose tasks rank 0 plans while the job runs ({@link StageRuntime#planStage}), once it knows
     * them (for example splits made from what earlier stages found); a rank that asks for one of its tasks before
     * then waits. Rank 0's calls only count, with the same timing as {@link #planStage}.
     */
    void deferStage(int stage);

    /** Task {@code task} of a handed-out stage would rather run on one of {@code hosts}. Rank 0's calls only count. */
    void preferHosts(int stage, int task, Collection<String> hosts);

    /** A directory private to this rank and job, on this rank's host; removed when the job ends, even on failure. */
    Path localDir();

    /**
     * Copies {@code fromRoot} (read on rank 0 only; ignored, and may be null, elsewhere) to {@code to} on every rank,
     * rank 0 included, through MPI broadcasts. A collective: every rank calls it, in the same order. Returns the bytes
     * copied.
     */
    long broadcast(InputStream fromRoot, OutputStream to) throws IOException;
}
