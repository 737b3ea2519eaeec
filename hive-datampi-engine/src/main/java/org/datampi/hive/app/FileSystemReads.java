package org.datampi.hive.app;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.FileSystemCounter;

/**
 * The bytes a task read per file-system scheme, as Hadoop's tasks count them (FILE_BYTES_READ, HDFS_BYTES_READ):
 * the change in Hadoop's per-scheme statistics over the task, exact because a process runs one task at a time.
 */
final class FileSystemReads {
    /** Hadoop's legacy name of the file-system counter group, the one Hive's MapRedStats reads. */
    static final String GROUP = "FileSystemCounters";

    private final Map<String, Long> before;

    private FileSystemReads(Map<String, Long> before) {
        this.before = before;
    }

    static FileSystemReads start() {
        return new FileSystemReads(bytesReadByScheme());
    }

    /** Adds the bytes read since {@link #start()} as e.g. FileSystemCounters.FILE_BYTES_READ (Hive reads them so). */
    void addTo(TaskCounters counters) {
        bytesReadByScheme().forEach((scheme, bytes) -> counters.incrCounter(GROUP,
                scheme.toUpperCase(Locale.ROOT) + "_" + FileSystemCounter.BYTES_READ.name(),
                bytes - before.getOrDefault(scheme, 0L)));
    }

    private static Map<String, Long> bytesReadByScheme() {
        Map<String, Long> reads = new HashMap<>();
        for (FileSystem.Statistics statistics : FileSystem.getAllStatistics()) {
            reads.merge(statistics.getScheme(), statistics.getBytesRead(), Long::sum);
        }
        return reads;
    }
}
