package org.datampi.mpid;

/**
 * A program the ranks run, as Tez runs a Processor: for each job the runtime makes a new one on every rank (through
 * its public constructor without arguments), calls {@link #setUpJob} on every rank together before the job's first
 * task, runs the job's tasks ({@link TaskProgram}) or stages ({@link StagedProgram}) on it, and closes it when the
 * job ends on the rank, after its last task, whether the job succeeded or not. What a program keeps for its job is
 * its own, in its fields: nothing of one job reaches the next through static state, and a serving rank (mpidrun
 * --serve) runs job after job without a program knowing which came before. One exception, by design: a cache a
 * program keeps for the rank's life on purpose (the Hive engine's RankIoCache, Hive's LLAP I/O layer in the JVM).
 *
 * <p>A class with only the paper's {@code public static void main(String[])} (an MPI_D program, such as the word
 * count of the examples) runs as a TaskProgram whose tasks call its main.
 */
public sealed interface RankProgram extends AutoCloseable permits TaskProgram, StagedProgram {
    /**
     * Once per job on every rank, all ranks together, before the job's first task: what every task of the job needs,
     * read once and handed to the ranks over MPI ({@link JobSetup}). Nothing, by default.
     */
    default void setUpJob(String[] args, JobSetup setup) throws Exception {
    }

    /** The job has ended on this rank: what the program holds for it goes. Nothing, by default. */
    @Override
    default void close() throws Exception {
    }
}
