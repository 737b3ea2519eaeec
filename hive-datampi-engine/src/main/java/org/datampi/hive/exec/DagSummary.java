package org.datampi.hive.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.hadoop.hive.ql.exec.AbstractMapOperator;
import org.apache.hadoop.hive.ql.exec.FileSinkOperator;
import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.exec.tez.HiveInputCounters;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.datampi.hive.app.DagCounters;
import org.datampi.hive.app.StageCounters;
import org.datampi.hive.app.TaskCounters;
import org.datampi.hive.app.TaskUsage;
import org.datampi.hive.dag.DagEdge;
import org.datampi.hive.dag.DagJob;
import org.datampi.hive.dag.DagVertex;

/**
 * A DAG stage's execution summary, printed after it as Hive on Tez prints its "Task Execution Summary"
 * ({@code hive.tez.exec.print.summary}), from the counters its tasks and ranks saved ({@link DagCounters}): per vertex
 * its tasks, duration (first task's start to last task's end), CPU time, records in and out (Hive's own
 * RECORDS_IN_&lt;vertex&gt; and its file sinks' RECORDS_OUT_*, and what its edges carried), bytes read from and
 * written to HDFS, bytes it sent over its edges, and for a vertex whose tasks read splits how
 * many ran on a host that holds their data; then the stage's ranks and what they spilled.
 */
final class DagSummary {
    static final String TITLE = "Task Execution Summary";
    private static final String FORMAT = "%-12s %6s %13s %13s %14s %15s %10s %11s %9s %6s";
    private static final String HEADER = String.format(Locale.ROOT, FORMAT, "VERTICES", "TASKS", "DURATION(ms)",
            "CPU_TIME(ms)", "INPUT_RECORDS", "OUTPUT_RECORDS", "HDFS_READ", "HDFS_WRITE", "SHUFFLED", "LOCAL");
    private static final String SEPARATOR = "-".repeat(HEADER.length());
    private static final String FILE_SINK_RECORDS = FileSinkOperator.Counter.RECORDS_OUT + "_";
    private static final String INTERMEDIATE_RECORDS = Operator.Counter.RECORDS_OUT_INTERMEDIATE.name();
    private static final String OPERATOR_RECORDS = Operator.Counter.RECORDS_OUT_OPERATOR.name();
    /**
     * HDFS's bytes, as Hive's MapReduce summary shows them ("HDFS Read", "HDFS Write"): exact, where Hadoop's count of
     * the local file system misses ORC's vectored reads (FILE_BYTES_READ would show a fraction of what a scan read).
     */
    private static final String HDFS_READ = "HDFS_BYTES_READ";
    private static final String HDFS_WRITE = "HDFS_BYTES_WRITTEN";

    private DagSummary() {
    }

    /**
     * The summary's lines.
     *
     * @param saved every counters file the stage's tasks and ranks saved, by name ({@link TaskCounters#read})
     * @param hiveGroup Hive's counter group (hive.counters.group.name)
     * @param ranks the stage's ranks
     */
    static List<String> lines(DagJob dag, Map<String, Counters> saved, String hiveGroup, int ranks) {
        requireNonNull(dag, "dag is null");
        requireNonNull(saved, "saved is null");
        Map<String, List<Counters>> tasks = new HashMap<>();
        Map<String, Counters> sums = new HashMap<>();
        for (DagVertex vertex : dag.vertices()) {
            tasks.put(vertex.name(), tasksOf(vertex, saved));
            sums.put(vertex.name(), TaskCounters.sum(tasks.get(vertex.name())));
        }
        List<String> lines = new ArrayList<>(List.of(TITLE, SEPARATOR, HEADER, SEPARATOR));
        for (DagVertex vertex : dag.vertices()) {
            lines.add(row(dag, vertex, tasks.get(vertex.name()), sums, hiveGroup));
        }
        lines.add(SEPARATOR);
        for (DagVertex vertex : dag.vertices()) {
            Counters splits = saved.get(DagCounters.splitsFile(vertex.name()));
            if (splits != null) {
                lines.add(pruning(vertex.name(), splits));
            }
        }
        long spilled = 0;
        for (int rank = 0; rank < ranks; rank++) {
            Counters counters = saved.get(DagCounters.rankFile(rank));
            if (counters != null) {
                spilled += counters.findCounter(StageCounters.GROUP, DagCounters.SPILLED_BYTES).getValue();
            }
        }
        lines.add(String.format(Locale.ROOT, "%d ranks; received data spilled to local disk: %s", ranks,
                bytes(spilled)));
        return lines;
    }

    /**
     * @param tasks the vertex's tasks' counters
     * @param sums each vertex's tasks' counters added up, by vertex name
     */
    private static String row(DagJob dag, DagVertex vertex, List<Counters> tasks, Map<String, Counters> sums,
            String hiveGroup) {
        String name = vertex.name();
        Counters sum = sums.get(name);
        long started = Long.MAX_VALUE;
        long ended = 0;
        for (Counters task : tasks) {
            started = Math.min(started, task.findCounter(TaskCounters.TIMES, TaskCounters.STARTED).getValue());
            ended = Math.max(ended, task.findCounter(TaskCounters.TIMES, TaskCounters.ENDED).getValue());
        }
        String counterSuffix = "_" + name.replace(' ', '_');
        long recordsIn = sum.findCounter(hiveGroup, AbstractMapOperator.Counter.RECORDS_IN + counterSuffix).getValue();
        for (DagEdge input : dag.inputsOf(name)) {
            recordsIn += sums.get(input.source()).findCounter(DagCounters.EDGE_RECORDS, name).getValue();
        }
        long recordsOut = fileSinkRecords(sum, hiveGroup);
        long shuffled = 0;
        for (DagEdge output : dag.edges()) {
            if (output.source().equals(name)) {
                recordsOut += sum.findCounter(DagCounters.EDGE_RECORDS, output.destination()).getValue();
                shuffled += sum.findCounter(DagCounters.EDGE_BYTES, output.destination()).getValue();
            }
        }
        long local = sum.findCounter(JobCounter.DATA_LOCAL_MAPS).getValue();
        long placed = local + sum.findCounter(JobCounter.OTHER_LOCAL_MAPS).getValue();
        return String.format(Locale.ROOT, FORMAT, name, vertex.tasks().size(),
                number(tasks.isEmpty() ? 0 : Math.max(0, ended - started)),
                number(sum.findCounter(TaskCounter.CPU_MILLISECONDS).getValue()), number(recordsIn),
                number(recordsOut), bytes(sum.findCounter(TaskUsage.FILE_SYSTEM_GROUP, HDFS_READ).getValue()),
                bytes(sum.findCounter(TaskUsage.FILE_SYSTEM_GROUP, HDFS_WRITE).getValue()), bytes(shuffled),
                placed == 0 ? "-" : local + "/" + placed);
    }

    /**
     * What dynamic partition pruning kept of a vertex's input, from its split generator's counters: Hive counts the
     * directories it read (HiveInputCounters.INPUT_DIRECTORIES_&lt;vertex&gt;), rank 0 those there were.
     */
    private static String pruning(String vertex, Counters splits) {
        long kept = 0;
        for (Counters.Counter counter : splits.getGroup(HiveInputCounters.class.getName())) {
            if (counter.getName().startsWith(HiveInputCounters.INPUT_DIRECTORIES.name())) {
                kept += counter.getValue();
            }
        }
        long before = splits.findCounter(DagCounters.PRUNING, DagCounters.DIRECTORIES_BEFORE).getValue();
        return String.format(Locale.ROOT, "%s: dynamic partition pruning kept %s of %s input directories", vertex,
                number(kept), number(before));
    }

    /**
     * The rows a vertex's file sinks wrote: Hive names their counters after the destination (RECORDS_OUT_1_db.table,
     * RECORDS_OUT_0), not after the vertex, and these are the vertex's own tasks' counters.
     */
    private static long fileSinkRecords(Counters vertex, String hiveGroup) {
        long records = 0;
        for (Counters.Counter counter : vertex.getGroup(hiveGroup)) {
            String name = counter.getName();
            if (name.startsWith(FILE_SINK_RECORDS) && !name.startsWith(INTERMEDIATE_RECORDS)
                    && !name.startsWith(OPERATOR_RECORDS)) {
                records += counter.getValue();
            }
        }
        return records;
    }

    private static List<Counters> tasksOf(DagVertex vertex, Map<String, Counters> saved) {
        List<Counters> found = new ArrayList<>();
        for (int task = 0; task < vertex.tasks().size(); task++) {
            Counters counters = saved.get(DagCounters.taskFile(vertex.name(), task));
            if (counters != null) {
                found.add(counters);
            }
        }
        return found;
    }

    private static String number(long value) {
        return String.format(Locale.US, "%,d", value);
    }

    /** Bytes as a person reads them: 0 B, 812 B, 3.4 KB, 12.0 MB, 1.2 GB (powers of 1024). */
    static String bytes(long value) {
        if (value < 1024) {
            return value + " B";
        }
        String[] units = {"KB", "MB", "GB", "TB", "PB"};
        double scaled = value;
        int unit = -1;
        while (scaled >= 1024 && unit < units.length - 1) {
            scaled /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", scaled, units[unit]);
    }
}
