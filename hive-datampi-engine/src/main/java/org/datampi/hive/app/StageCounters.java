package org.datampi.hive.app;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.hadoop.hive.llap.counters.LlapIOCounters;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapreduce.JobCounter;

/**
 * The counters a stage's ranks keep beside Hive's own, and what the console says about them after the stage: how many
 * O tasks read their split on a host that holds its blocks (Hadoop's DATA_LOCAL_MAPS and OTHER_LOCAL_MAPS, counted by
 * each O task whose split names hosts), how the job's files reached the ranks ({@link JobFiles}), and how much of the
 * ORC data its tasks read came from the ranks' LLAP I/O cache (LLAP's own counters, which the cache keeps:
 * {@code RankIoCache}).
 */
public final class StageCounters {
    public static final String GROUP = "datampi";
    static final String JOB_FILES_READ = "JOB_FILES_READ";
    static final String JOB_FILE_BYTES_READ = "JOB_FILE_BYTES_READ";
    static final String JOB_FILE_RANKS = "JOB_FILE_RANKS";

    private StageCounters() {
    }

    /** The console's lines about a finished stage; none when its O tasks had no hosts and it had no job files. */
    public static List<String> describe(Counters counters) {
        List<String> lines = new ArrayList<>();
        long local = counters.findCounter(JobCounter.DATA_LOCAL_MAPS).getValue();
        long placed = local + counters.findCounter(JobCounter.OTHER_LOCAL_MAPS).getValue();
        if (placed > 0) {
            lines.add(String.format(Locale.ROOT, "O tasks data-local: %d of %d", local, placed));
        }
        long files = counters.findCounter(GROUP, JOB_FILES_READ).getValue();
        if (files > 0) {
            lines.add(String.format(Locale.ROOT, "job files: %d (%d bytes) read once, broadcast to %d ranks", files,
                    counters.findCounter(GROUP, JOB_FILE_BYTES_READ).getValue(),
                    counters.findCounter(GROUP, JOB_FILE_RANKS).getValue()));
        }
        // Looked up, not got: getGroup would add an empty group to every stage's counters, which Hive reads.
        if (counters.getGroupNames().contains(LlapIOCounters.class.getName())) {
            Counters.Group io = counters.getGroup(LlapIOCounters.class.getName());
            long fromCache = io.getCounter(LlapIOCounters.CACHE_HIT_BYTES.name());
            long fromFiles = io.getCounter(LlapIOCounters.CACHE_MISS_BYTES.name());
            lines.add(String.format(Locale.ROOT, "ORC data: %d bytes from the ranks' cache, %d bytes from the files",
                    fromCache, fromFiles));
        }
        return lines;
    }
}
