package org.datampi.hive.app;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Iterator;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StorageStatistics;
import org.apache.tez.common.counters.TaskCounter;

/**
 * What a DAG's tasks and ranks count beside Hive's and Tez's own counters, for the stage's execution summary
 * ({@code DagSummary} on the client), and the names of the files they are saved in next to the DAG file
 * ({@link TaskCounters}): one per task, {@link #taskFile}, and one per rank, {@link #rankFile}.
 *
 * <p>A task counts the records and bytes it sent on each edge, by destination vertex ({@link #EDGE_RECORDS},
 * {@link #EDGE_BYTES}; bytes as serialized, a broadcast pair once for each receiving rank), and what its rank's
 * process used while it ran ({@link Usage}): the rank runs one task at a time, so the process's CPU time, GC time and
 * file-system bytes over the task are the task's, its shuffle's threads included. A rank counts the received data it
 * spilled ({@link #SPILLED_BYTES}), which is not any one task's.
 */
public final class DagCounters {
    /** Records a task sent, one counter per destination vertex. */
    public static final String EDGE_RECORDS = "datampi-edge-records";
    /** Serialized bytes a task sent, one counter per destination vertex. */
    public static final String EDGE_BYTES = "datampi-edge-bytes";
    /** Bytes the task read through Hadoop's file systems (its split, side tables), in {@link StageCounters#GROUP}. */
    public static final String BYTES_READ = "BYTES_READ";
    /** Bytes the task wrote through Hadoop's file systems (its file sinks), in {@link StageCounters#GROUP}. */
    public static final String BYTES_WRITTEN = "BYTES_WRITTEN";
    /** Bytes of received data a rank spilled to its local disk, in {@link StageCounters#GROUP}. */
    public static final String SPILLED_BYTES = "SPILLED_BYTES";

    /** Hadoop's names of a file system's byte counts (FileSystemStorageStatistics). */
    private static final String FS_BYTES_READ = "bytesRead";
    private static final String FS_BYTES_WRITTEN = "bytesWritten";

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

    /** The process's CPU time, GC time and file-system bytes at one moment; {@link #countSince} adds the rest. */
    public record Usage(long cpuNanos, long gcMillis, long bytesRead, long bytesWritten) {
        public static Usage now() {
            long gc = 0;
            for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
                gc += Math.max(0, collector.getCollectionTime());
            }
            long read = 0;
            long written = 0;
            for (Iterator<StorageStatistics> all = FileSystem.getGlobalStorageStatistics().iterator(); all.hasNext();) {
                StorageStatistics statistics = all.next();
                read += valueOf(statistics.getLong(FS_BYTES_READ));
                written += valueOf(statistics.getLong(FS_BYTES_WRITTEN));
            }
            return new Usage(processCpuNanos(), gc, read, written);
        }

        /** Counts what the process used from this moment to now as Tez's CPU and GC counters and ours. */
        public void countSince(TaskCounters counters) {
            Usage now = now();
            counters.incrCounter(TaskCounter.CPU_MILLISECONDS, Math.max(0, now.cpuNanos - cpuNanos) / 1_000_000);
            counters.incrCounter(TaskCounter.GC_TIME_MILLIS, Math.max(0, now.gcMillis - gcMillis));
            counters.incrCounter(StageCounters.GROUP, BYTES_READ, Math.max(0, now.bytesRead - bytesRead));
            counters.incrCounter(StageCounters.GROUP, BYTES_WRITTEN, Math.max(0, now.bytesWritten - bytesWritten));
        }

        private static long valueOf(Long value) {
            return value == null ? 0 : value;
        }

        private static long processCpuNanos() {
            if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
                return Math.max(0, os.getProcessCpuTime());
            }
            return 0;
        }
    }
}
