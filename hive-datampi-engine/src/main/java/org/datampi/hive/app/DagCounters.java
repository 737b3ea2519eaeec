package org.datampi.hive.app;

/**
 * What a DAG's tasks and ranks count beside Hive's and Tez's own counters, for the stage's execution summary
 * ({@code DagSummary} on the client), and the names of the files they are saved in next to the DAG file
 * ({@link TaskCounters}): one per task, {@link #taskFile}, one per rank, {@link #rankFile}, and one per vertex whose
 * splits rank 0 made while the DAG ran, {@link #splitsFile}.
 *
 * <p>A task counts the records and bytes it sent on each edge, by destination vertex ({@link #EDGE_RECORDS},
 * {@link #EDGE_BYTES}; bytes as serialized, a broadcast pair once for each receiving rank) and, as every task does,
 * what its rank's process used while it ran ({@link TaskUsage}). A rank counts the received data it spilled
 * ({@link #SPILLED_BYTES}), which is not any one task's.
 */
public final class DagCounters {
    /** Records a task sent, one counter per destination vertex. */
    public static final String EDGE_RECORDS = "datampi-edge-records";
    /** Serialized bytes a task sent, one counter per destination vertex. */
    public static final String EDGE_BYTES = "datampi-edge-bytes";
    /** Dynamic partition pruning of a vertex, in its {@link #splitsFile}. */
    public static final String PRUNING = "datampi-partition-pruning";
    /** The input directories (partitions) of a pruned vertex before pruning, in {@link #PRUNING}. */
    public static final String DIRECTORIES_BEFORE = "INPUT_DIRECTORIES_BEFORE_PRUNING";
    /** Bytes of received data a rank spilled to its local disk, in {@link StageCounters#GROUP}. */
    public static final String SPILLED_BYTES = "SPILLED_BYTES";

    private DagCounters() {
    }

    /** The counters file of a vertex's task. */
    public static String taskFile(String vertex, int task) {
        return vertex.replace(' ', '-') + "-" + task;
    }

    /**
     * The counters file of a vertex's splits made on rank 0 (dynamic partition pruning): Hive's split generator's
     * HiveInputCounters and {@link #PRUNING}. No vertex name starts with "splits".
     */
    public static String splitsFile(String vertex) {
        return "splits-" + vertex.replace(' ', '-');
    }

    /** The counters file of a rank (no vertex name starts with "rank"). */
    public static String rankFile(int rank) {
        return "rank-" + rank;
    }
}
