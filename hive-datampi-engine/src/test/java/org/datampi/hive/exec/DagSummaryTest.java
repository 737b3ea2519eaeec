package org.datampi.hive.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
import org.datampi.hive.dag.TestDags;
import org.junit.jupiter.api.Test;

class DagSummaryTest {
    /** Map 1 (2 tasks) reads lineitem and sends to Reducer 2 (1 task), which writes a table. */
    private static final DagJob DAG = new DagJob("hive_query_1", List.of(TestDags.vertex("Map 1", 0, "lineitem", 2),
            TestDags.vertex("Reducer 2", 1, "", 1)),
            List.of(new DagEdge("Map 1", "Map 1", "Reducer 2", DagEdge.Routing.SORTED, 0, 1)), List.of());

    private static Counters task(long started, long ended, long cpuMillis) {
        Counters counters = new Counters();
        counters.incrCounter(TaskCounters.TIMES, TaskCounters.STARTED, started);
        counters.incrCounter(TaskCounters.TIMES, TaskCounters.ENDED, ended);
        counters.findCounter(TaskCounter.CPU_MILLISECONDS).increment(cpuMillis);
        return counters;
    }

    private static Counters spilled(long bytes) {
        Counters counters = new Counters();
        counters.incrCounter(StageCounters.GROUP, DagCounters.SPILLED_BYTES, bytes);
        return counters;
    }

    @Test
    void eachVertexHasItsTasksTimeRecordsAndBytesAndTheStageItsSpills() {
        Map<String, Counters> saved = new TreeMap<>();
        Counters map0 = task(1_000, 1_800, 700);
        map0.incrCounter("HIVE", "RECORDS_IN_Map_1", 6_000);
        map0.incrCounter(DagCounters.EDGE_RECORDS, "Reducer 2", 40);
        map0.incrCounter(DagCounters.EDGE_BYTES, "Reducer 2", 2_048);
        map0.incrCounter(TaskUsage.FILE_SYSTEM_GROUP, "HDFS_BYTES_READ", 2 * 1024 * 1024);
        map0.incrCounter(TaskUsage.FILE_SYSTEM_GROUP, "FILE_BYTES_READ", 1024 * 1024);
        map0.findCounter(JobCounter.DATA_LOCAL_MAPS).increment(1);
        Counters map1 = task(1_200, 2_500, 900);
        map1.incrCounter("HIVE", "RECORDS_IN_Map_1", 4_000);
        map1.incrCounter("HIVE", "RECORDS_OUT_INTERMEDIATE_Map_1", 60);
        map1.incrCounter(DagCounters.EDGE_RECORDS, "Reducer 2", 60);
        map1.incrCounter(DagCounters.EDGE_BYTES, "Reducer 2", 1_024);
        map1.findCounter(JobCounter.OTHER_LOCAL_MAPS).increment(1);
        Counters reducer = task(2_600, 2_700, 50);
        reducer.incrCounter("HIVE", "RECORDS_OUT_1_default.totals", 7);
        reducer.incrCounter("HIVE", "RECORDS_OUT_OPERATOR_FS_4", 7);
        reducer.incrCounter(TaskUsage.FILE_SYSTEM_GROUP, "HDFS_BYTES_WRITTEN", 500);
        saved.put(DagCounters.taskFile("Map 1", 0), map0);
        saved.put(DagCounters.taskFile("Map 1", 1), map1);
        saved.put(DagCounters.taskFile("Reducer 2", 0), reducer);
        saved.put(DagCounters.rankFile(0), spilled(0));
        saved.put(DagCounters.rankFile(1), spilled(5 * 1024 * 1024));

        List<String> lines = DagSummary.lines(DAG, saved, "HIVE", 2);

        assertEquals(DagSummary.TITLE, lines.get(0));
        assertEquals(List.of("VERTICES", "TASKS", "DURATION(ms)", "CPU_TIME(ms)", "INPUT_RECORDS", "OUTPUT_RECORDS",
                "HDFS_READ", "HDFS_WRITE", "SHUFFLED", "LOCAL"), columns(lines.get(2)));
        // Duration: first task's start to last task's end; records in: Hive's RECORDS_IN; out: what the edge carried;
        // HDFS's bytes only (the local file system's count misses vectored reads).
        assertEquals(List.of("Map", "1", "2", "1,500", "1,600", "10,000", "100", "2.0", "MB", "0", "B", "3.0", "KB",
                "1/2"), columns(lines.get(4)));
        // A vertex fed by an edge reads what its inputs sent it; its file sink's rows are its output.
        assertEquals(List.of("Reducer", "2", "1", "100", "50", "100", "7", "0", "B", "500", "B", "0", "B", "-"),
                columns(lines.get(5)));
        assertEquals("2 ranks; received data spilled to local disk: 5.0 MB", lines.get(lines.size() - 1));
    }

    @Test
    void missingTaskCountersLeaveZerosNotAFailure() {
        List<String> lines = DagSummary.lines(DAG, Map.of(), "HIVE", 2);
        assertEquals(List.of("Map", "1", "2", "0", "0", "0", "0", "0", "B", "0", "B", "0", "B", "-"),
                columns(lines.get(4)));
    }

    @Test
    void bytesReadAsAPersonReadsThem() {
        assertEquals("0 B", DagSummary.bytes(0));
        assertEquals("1023 B", DagSummary.bytes(1023));
        assertEquals("1.0 KB", DagSummary.bytes(1024));
        assertEquals("1.5 GB", DagSummary.bytes(3L * 512 * 1024 * 1024));
    }

    private static List<String> columns(String line) {
        return Arrays.asList(line.trim().split("\\s+"));
    }

    /** A vertex whose splits rank 0 made after pruning gets a line: the directories kept of those there were. */
    @Test
    void aPrunedVertexSaysWhatPruningKept() {
        Map<String, Counters> saved = new TreeMap<>();
        Counters splits = new Counters();
        splits.incrCounter(HiveInputCounters.class.getName(), "INPUT_DIRECTORIES_Map_1", 150);
        splits.incrCounter(HiveInputCounters.class.getName(), "RAW_INPUT_SPLITS_Map_1", 150);
        splits.incrCounter(DagCounters.PRUNING, DagCounters.DIRECTORIES_BEFORE, 1_783);
        saved.put(DagCounters.splitsFile("Map 1"), splits);

        List<String> lines = DagSummary.lines(DAG, saved, "HIVE", 2);

        assertEquals("Map 1: dynamic partition pruning kept 150 of 1,783 input directories",
                lines.get(lines.size() - 2));
    }
}
