package org.datampi.hive.app;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.TaskCounter;

/**
 * What a task's process used while the task ran, counted as Hadoop's tasks count it, for Hive (its MapRedStats line:
 * CPU, HDFS read and write) and for a DAG stage's summary: the bytes read and written per file-system scheme
 * (FileSystemCounters FILE_BYTES_READ, HDFS_BYTES_WRITTEN, ...), CPU time and GC time (Hadoop's TaskCounter
 * CPU_MILLISECONDS, GC_TIME_MILLIS), and the bytes the operating system saw the process read
 * ({@value #OS_BYTES_READ}). Each is the change over the task, the task's own because a rank runs one task at a time
 * (its shuffle's threads included). The operating system's count exists because Hadoop's local file system does not
 * count vectored reads, which is how ORC reads column streams; Linux counts every read and pread of the process
 * ({@code rchar}).
 */
public final class TaskUsage {
    /** Hadoop's legacy name of the file-system counter group, the one Hive's MapRedStats reads. */
    public static final String FILE_SYSTEM_GROUP = "FileSystemCounters";
    static final String OS_BYTES_READ = "OS_BYTES_READ";
    private static final Path PROCESS_IO = Path.of("/proc/self/io");

    private final Map<String, Long> readBefore;
    private final Map<String, Long> writtenBefore;
    private final long osBytesBefore;
    private final long cpuNanosBefore;
    private final long gcMillisBefore;

    private TaskUsage() {
        this.readBefore = bytesByScheme(true);
        this.writtenBefore = bytesByScheme(false);
        this.osBytesBefore = osBytesRead();
        this.cpuNanosBefore = processCpuNanos();
        this.gcMillisBefore = gcMillis();
    }

    /** Starts counting. */
    public static TaskUsage start() {
        return new TaskUsage();
    }

    /** Adds what the process used since {@link #start()} to the task's counters. */
    public void addTo(TaskCounters counters) {
        bytesByScheme(true).forEach((scheme, bytes) -> counters.incrCounter(FILE_SYSTEM_GROUP,
                counterName(scheme, FileSystemCounter.BYTES_READ), bytes - readBefore.getOrDefault(scheme, 0L)));
        bytesByScheme(false).forEach((scheme, bytes) -> counters.incrCounter(FILE_SYSTEM_GROUP,
                counterName(scheme, FileSystemCounter.BYTES_WRITTEN),
                bytes - writtenBefore.getOrDefault(scheme, 0L)));
        long osBytes = osBytesRead();
        if (osBytes >= 0 && osBytesBefore >= 0) {
            counters.incrCounter(StageCounters.GROUP, OS_BYTES_READ, osBytes - osBytesBefore);
        }
        counters.incrCounter(TaskCounter.CPU_MILLISECONDS, Math.max(0, processCpuNanos() - cpuNanosBefore)
                / 1_000_000);
        counters.incrCounter(TaskCounter.GC_TIME_MILLIS, Math.max(0, gcMillis() - gcMillisBefore));
    }

    private static String counterName(String scheme, FileSystemCounter counter) {
        return scheme.toUpperCase(Locale.ROOT) + "_" + counter.name();
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

    private static Map<String, Long> bytesByScheme(boolean read) {
        Map<String, Long> bytes = new HashMap<>();
        for (FileSystem.Statistics statistics : FileSystem.getAllStatistics()) {
            bytes.merge(statistics.getScheme(), read ? statistics.getBytesRead() : statistics.getBytesWritten(),
                    Long::sum);
        }
        return bytes;
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return Math.max(0, os.getProcessCpuTime());
        }
        return 0;
    }

    private static long gcMillis() {
        long total = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, collector.getCollectionTime());
        }
        return total;
    }
}
