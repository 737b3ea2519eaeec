package org.datampi.hive.dag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.FileSplit;
import org.apache.hadoop.mapred.TextInputFormat;
import org.apache.hadoop.mapred.split.TezGroupedSplit;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.tez.dag.api.InputDescriptor;
import org.apache.tez.dag.api.OutputDescriptor;
import org.apache.tez.dag.api.ProcessorDescriptor;
import org.apache.tez.dag.records.TezDAGID;
import org.apache.tez.dag.records.TezTaskAttemptID;
import org.apache.tez.dag.records.TezTaskID;
import org.apache.tez.dag.records.TezVertexID;
import org.apache.tez.mapreduce.hadoop.MRInputHelpers;
import org.apache.tez.runtime.api.impl.InputSpec;
import org.apache.tez.runtime.api.impl.OutputSpec;
import org.apache.tez.runtime.api.impl.TaskSpec;
import org.datampi.hive.app.MpiShuffleInput;
import org.datampi.hive.app.MpiShuffleOutput;
import org.datampi.hive.app.MpiUnorderedInput;
import org.junit.jupiter.api.Test;

class DagJobTest {
    @Test
    void theShuffleClassNamesNameTheShuffleClasses() {
        assertEquals(MpiShuffleOutput.class.getName(), DagJob.SHUFFLE_OUTPUT);
        assertEquals(MpiShuffleInput.class.getName(), DagJob.GROUPED_INPUT);
        assertEquals(MpiUnorderedInput.class.getName(), DagJob.UNORDERED_INPUT);
    }

    private static DagVertex vertex(String name, int id, String rootInput, int tasks) {
        return TestDags.vertex(name, id, rootInput, tasks);
    }

    @Test
    void aVertexComesAfterEveryVertexItReadsAndItsEdgesSurviveTheTrip() throws Exception {
        DagEdge sorted = new DagEdge("Map 1", "Map 1", "Reducer 2", DagEdge.Routing.SORTED, 0, 3);
        DagEdge broadcast = new DagEdge("Map 3", "Map 3", "Map 1", DagEdge.Routing.BROADCAST, 3, 2);
        DagJob job = new DagJob("hive_query_1", List.of(vertex("Map 3", 2, "nation", 1),
                vertex("Map 1", 0, "lineitem", 4),
                vertex("Reducer 2", 1, "", 3)), List.of(sorted, broadcast), List.of("hdfs://nn/dag/jars/0-udf.jar"));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        job.write(bytes);
        DagJob read = DagJob.read(new ByteArrayInputStream(bytes.toByteArray()));

        assertEquals(List.of(sorted, broadcast), read.edges());
        assertEquals(List.of("hdfs://nn/dag/jars/0-udf.jar"), read.classPath());
        assertTrue(read.concurrentVertices(), "vertices side by side unless the DAG says otherwise");
        ByteArrayOutputStream inOrder = new ByteArrayOutputStream();
        new DagJob("hive_query_1", job.vertices(), job.edges(), List.of(), false).write(inOrder);
        assertFalse(DagJob.read(new ByteArrayInputStream(inOrder.toByteArray())).concurrentVertices());
        assertEquals(1, read.stageOf("Map 1"));
        assertEquals(List.of(broadcast), read.inputsOf("Map 1"));
        assertEquals(sorted, read.edge("Map 1", "Reducer 2"));
        assertEquals(sorted, read.edgeInto("Reducer 2", "Map 1"));
        assertEquals(5, read.handedOutTasks());
        assertEquals(3, read.placedTasks());
        assertTrue(read.vertices().get(1).handedOut());
        assertFalse(read.vertices().get(2).handedOut());
        // Partition p of an edge is received by the rank that runs destination task p (p mod ranks).
        assertEquals(1, sorted.rankOf(1, 2));
        assertEquals(0, sorted.rankOf(2, 2));

        // A union's members send to one input of their destination, on the same partitions.
        DagEdge first = new DagEdge("Map 1", "Union 2", "Reducer 3", DagEdge.Routing.SORTED, 0, 2);
        DagEdge second = new DagEdge("Map 4", "Union 2", "Reducer 3", DagEdge.Routing.SORTED, 0, 2);
        DagJob union = new DagJob("hive_query_1", List.of(vertex("Map 1", 0, "a", 1), vertex("Map 4", 2, "b", 1),
                vertex("Reducer 3", 1, "", 2)), List.of(first, second), List.of());
        assertEquals(first, union.edgeInto("Reducer 3", "Union 2"));
        assertEquals(second, union.edge("Map 4", "Reducer 3"));
        assertEquals(List.of(first, second), union.inputsOf("Reducer 3"));

        IllegalArgumentException misordered = assertThrows(IllegalArgumentException.class, () -> new DagJob(
                "hive_query_1", List.of(vertex("Reducer 2", 1, "", 3), vertex("Map 1", 0, "lineitem", 4)),
                List.of(sorted), List.of()));
        assertTrue(misordered.getMessage().contains("Reducer 2 reads from Map 1, which does not come before it"),
                misordered.getMessage());
    }

    @Test
    void aJobSurvivesItsTripToTheRanksAndEachTaskGetsItsOwnSpec() throws Exception {
        TezVertexID vertex = TezVertexID.getInstance(TezDAGID.getInstance(ApplicationId.newInstance(7, 3), 1), 0);
        TaskSpec template = new TaskSpec(TezTaskAttemptID.getInstance(TezTaskID.getInstance(vertex, 0), 0), "dag",
                "Map 1", 2, ProcessorDescriptor.create("Processor"),
                new ArrayList<>(List.of(new InputSpec("sales", InputDescriptor.create("Input"), 1))),
                new ArrayList<>(List.of(new OutputSpec("Reducer 2", OutputDescriptor.create(DagJob.SHUFFLE_OUTPUT),
                        3))), null, new Configuration(false));
        DagJob job = new DagJob("hive_query_1", List.of(new DagVertex(template, "sales", List.of(
                new DagVertex.VertexTask(new byte[] {1, 2}, List.of("dmp1")),
                new DagVertex.VertexTask(new byte[] {3}, List.of())))), List.of(), List.of());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        job.write(bytes);
        DagJob read = DagJob.read(new ByteArrayInputStream(bytes.toByteArray()));

        assertEquals("hive_query_1", read.queryId());
        DagVertex map = read.vertices().get(0);
        assertEquals("sales", map.rootInput());
        assertEquals(List.of("dmp1"), map.tasks().get(0).hosts());
        assertEquals(3, map.tasks().get(1).split()[0]);
        TaskSpec first = map.taskSpec(0);
        TaskSpec second = map.taskSpec(1);
        assertEquals(1, second.getTaskAttemptID().getTaskID().getId());
        assertEquals(2, second.getVertexParallelism());
        // Tez's runtime empties a task's spec lists when the task ends: the next task of the vertex keeps its own.
        first.getInputs().clear();
        first.getOutputs().clear();
        assertEquals("Input", second.getInputs().get(0).getInputDescriptor().getClassName());
        assertEquals(3, second.getOutputs().get(0).getPhysicalEdgeCount());
    }

    /**
     * A bucket map join's big table reads splits and a bucket edge: its tasks are placed (task t on rank t mod size,
     * where the edge's partition t arrives), and the edge's routing table survives the trip.
     */
    @Test
    void aBucketMapJoinsTasksArePlacedAndItsRoutingSurvivesTheTrip() throws Exception {
        DagVertex small = vertex("Map 1", 0, "small", 1);
        DagVertex bigTemplate = vertex("Map 2", 1, "big", 3);
        DagVertex big = new DagVertex(bigTemplate.template(), "big", bigTemplate.tasks(), Optional.empty(), true);
        DagEdge buckets = new DagEdge("Map 1", "Map 1", "Map 2", DagEdge.Routing.BUCKET, 0, 3,
                List.of(List.of(0), List.of(1, 2)));
        DagJob job = new DagJob("hive_query_1", List.of(small, big), List.of(buckets), List.of());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        job.write(bytes);
        DagJob read = DagJob.read(new ByteArrayInputStream(bytes.toByteArray()));

        assertEquals(List.of(buckets), read.edges());
        assertEquals(List.of(List.of(0), List.of(1, 2)), read.edges().get(0).bucketTasks());
        assertTrue(read.vertices().get(0).handedOut());
        assertFalse(read.vertices().get(1).handedOut(), "the big table's tasks run where their buckets arrive");
        assertTrue(read.vertices().get(1).bucketJoin());
        assertEquals(1, read.handedOutTasks());
        assertEquals(3, read.placedTasks());

        IllegalArgumentException noBuckets = assertThrows(IllegalArgumentException.class, () -> new DagEdge("Map 1",
                "Map 1", "Map 2", DagEdge.Routing.BUCKET, 0, 3));
        assertEquals("Edge Map 1 -> Map 2 (BUCKET) has 0 buckets", noBuckets.getMessage());
        IllegalArgumentException outOfRange = assertThrows(IllegalArgumentException.class, () -> new DagEdge("Map 1",
                "Map 1", "Map 2", DagEdge.Routing.BUCKET, 0, 3, List.of(List.of(3))));
        assertEquals("Edge Map 1 -> Map 2 routes a bucket to [3] of 3 tasks", outOfRange.getMessage());
    }

    /** A task's failure names the files its split reads: Tez's grouped split is taken apart. */
    @Test
    void aTaskSplitNamesTheFilesItReads() throws Exception {
        TezGroupedSplit grouped = new TezGroupedSplit(2, TextInputFormat.class.getName(), new String[] {"dmp1"});
        grouped.addSplit(new FileSplit(new Path("file:/warehouse/sales/000000_0"), 0, 100, new String[0]));
        grouped.addSplit(new FileSplit(new Path("file:/warehouse/sales/000001_0"), 50, 25, new String[0]));
        byte[] split = MRInputHelpers.createSplitProto(grouped).toByteArray();
        assertEquals("file:/warehouse/sales/000000_0:0+100, file:/warehouse/sales/000001_0:50+25",
                new DagVertex.VertexTask(split, List.of()).files());
        assertEquals("", new DagVertex.VertexTask(new byte[0], List.of()).files(), "a task without a split");
    }
}
