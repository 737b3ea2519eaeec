package org.datampi.hive.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.FileSystemCounter;

/**
 * The bytes a task read: per file-system scheme as Hadoop's tasks count them (FILE_BYTES_READ, HDFS_BYTES_READ),
 * and as the operating system counts them ({@value #OS_BYTES_READ}). Both are the change over the task, exact because a
 * process runs one task at a time. The second exists because Hadoop's local file system does not count vectored
 * reads, which is how ORC reads column streams; Linux counts every read and pread of the process ({@code rchar}).
 */
final class FileSystemReads {
    /** Hadoop's legacy name of the file-system counter group, the one Hive's MapRedStats reads. */
    static final String GROUP = "FileSystemCounters";

    /** The counter group and name of the bytes the operating system saw the task read. */
    static final String DATAMPI_GROUP = "datampi";
    static final String OS_BYTES_READ = "OS_BYTES_READ";
    private static final Path PROCESS_IO = Path.of("/proc/self/io");

    private final Map<String, Long> before;
    private final long osBytesBefore;

    private FileSystemReads(Map<String, Long> before, long osBytesBefore) {
        this.before = before;
        this.osBytesBefore = osBytesBefore;
    }

    static FileSystemReads start() {
        return new FileSystemReads(bytesReadByScheme(), osBytesRead());
    }

    /** Adds the bytes read since {@link #start()} as e.g. FileSystemCounters.FILE_BYTES_READ (Hive reads them so). */
    void addTo(TaskCounters counters) {
        bytesReadByScheme().forEach((scheme, bytes) -> counters.incrCounter(GROUP,
                scheme.toUpperCase(Locale.ROOT) + "_" + FileSystemCounter.BYTES_READ.name(),
                bytes - before.getOrDefault(scheme, 0L)));
        long osBytes = osBytesRead();
        if (osBytes >= 0 && osBytesBefore >= 0) {
            counters.incrCounter(DATAMPI_GROUP, OS_BYTES_READ, osBytes - osBytesBefore);
        }
    }

    /** This process's rchar, or -1 where the system does not tell it. */
    private static long osBytesRead() {
        try {
            for (String line : Files.readAllLines(PROCESS_IO)) {
                if (line.startsWith("rchar:")) {
                    return Long.parseLong(line.substring("rchar:".length()).trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    private static Map<String, Long> bytesReadByScheme() {
        Map<String, Long> reads = new HashMap<>();
        for (FileSystem.Statistics statistics : FileSystem.getAllStatistics()) {
            reads.merge(statistics.getScheme(), statistics.getBytesRead(), Long::sum);
        }
        return reads;
    }
}
