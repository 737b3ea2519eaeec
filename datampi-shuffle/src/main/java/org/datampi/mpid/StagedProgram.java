package org.datampi.mpid;

/**
 * A program that schedules its own stages, a DAG of them (Hive's Tez plans): {@link #runStages} runs once per job on
 * every rank, after {@link #setUpJob} (where rank 0 plans the stages), with the rank's shuffle under it
 * ({@link StageRuntime}). A failure of one of its tasks is a {@link StageTaskException} naming the task.
 */
public non-sealed interface StagedProgram extends RankProgram {
    void runStages(String[] args, StageRuntime stages) throws Exception;
}
