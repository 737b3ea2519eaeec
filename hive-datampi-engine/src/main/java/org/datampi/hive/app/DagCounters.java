package org.datampi.hive.app;

/**
 * What a DAG's tasks and ranks count beside Hive's and Tez's own counters, for the stage's execution summary
 * ({@code DagSummary} on the client), and the names of the files they are saved in next to the DAG file
 * ({@link TaskCounters}): one per task, {@link #taskFile}, and one per rank, {@link #rankFile}.
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
    /** Bytes of received data a rank spilled to its local disk, in {@link StageCounters#GROUP}. */
    public static final String SPILLED_BYTES = "SPILLED_BYTES";

    private DagCounters() {
    }

    /** The counters file of a vertex's task. */
    public static String taskFile(String vertex, int task) {
        return vertex.replace(' ', '-') + "-" + task;
    }

    /** The counters file of a rank (no vertex name starts with "rank"). */
    public static String rankFile(int rank) {
        return "rank-" + rank;
    }
}
