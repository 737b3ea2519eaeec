package org.datampi.hive.dag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.tez.runtime.api.events.InputInitializerEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dynamic partition pruning on the ranks: a deferred vertex, its sources' events, and the files they cross in. */
class PruningFilesTest {
    /** Map 1 scans store_sales (1,823 partitions), pruned by one column of Map 2's rows. */
    private static DagVertex deferredSales() {
        return TestDags.deferred("Map 1", 0, "store_sales", "Map 2");
    }

    private static final SplitRequest PRUNED = deferredSales().deferredSplits().orElseThrow();

    private static InputInitializerEvent event(byte... payload) {
        return InputInitializerEvent.create("Map 1", "store_sales", ByteBuffer.wrap(payload));
    }

    @Test
    void aDeferredVertexTravelsWithItsSplitRequestAfterItsEventSourcesAndGetsItsTasksLater() throws Exception {
        DagVertex dates = TestDags.vertex("Map 2", 1, "date_dim", 1);
        DagJob job = new DagJob("hive_query_1", List.of(dates, deferredSales()), List.of(), List.of());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        job.write(bytes);
        DagJob read = DagJob.read(new ByteArrayInputStream(bytes.toByteArray()));

        DagVertex sales = read.vertices().get(1);
        assertTrue(sales.deferred());
        assertTrue(sales.handedOut(), "its tasks read splits");
        assertEquals("store_sales", sales.rootInput());
        assertEquals(Set.of("Map 2"), sales.eventSources());
        assertEquals(PRUNED, sales.deferredSplits().orElseThrow());
        assertEquals(1, read.handedOutTasks(), "no tasks before its splits are made");

        IllegalArgumentException misordered = assertThrows(IllegalArgumentException.class,
                () -> new DagJob("hive_query_1", List.of(deferredSales(), dates), List.of(), List.of()));
        assertTrue(misordered.getMessage().contains("Map 1 is pruned by events of Map 2, which does not come "
                + "before it"), misordered.getMessage());

        DagVertex made = sales.withTasks(List.of(new DagVertex.VertexTask(new byte[] {1}, List.of("dmp2")),
                new DagVertex.VertexTask(new byte[] {2}, List.of())));
        assertFalse(made.deferred());
        assertEquals(2, made.taskSpec(1).getVertexParallelism());
        assertEquals(3, read.withMadeSplits(made).handedOutTasks());
        assertThrows(IllegalStateException.class, () -> made.withTasks(List.of()), "its splits are made once");
    }

    @Test
    void eventsAndMadeVerticesCrossRanksAsFiles(@TempDir java.nio.file.Path dir) throws Exception {
        PruningFiles files = new PruningFiles(new Configuration(), new Path(dir.toUri()));
        files.writeEvents("Map 2", 0, List.of(event((byte) 1, (byte) 2)));
        files.writeEvents("Map 2", 1, List.of());
        files.writeEvents("Map 2", 2, List.of(event((byte) 3)));

        List<InputInitializerEvent> events = files.readEvents("Map 2", 3);
        assertEquals(2, events.size(), "a task that sent none saved none");
        assertEquals("Map 2", events.get(0).getSourceVertexName());
        assertEquals("Map 1", events.get(0).getTargetVertexName());
        assertEquals("store_sales", events.get(0).getTargetInputName());
        assertEquals(ByteBuffer.wrap(new byte[] {1, 2}), events.get(0).getUserPayload());
        assertEquals(ByteBuffer.wrap(new byte[] {3}), events.get(1).getUserPayload());

        assertEquals(Optional.empty(), files.readVertex("Map 1"), "not saved yet");
        DagVertex made = deferredSales().withTasks(List.of(new DagVertex.VertexTask(new byte[] {9},
                List.of("dmp1"))));
        files.writeVertex(made);
        DagVertex read = files.readVertex("Map 1").orElseThrow();
        assertEquals(List.of("dmp1"), read.tasks().get(0).hosts());
        assertFalse(read.deferred());

        files.clear();
        assertTrue(files.readEvents("Map 2", 3).isEmpty(), "a failed attempt's events go");
        assertEquals(Optional.empty(), files.readVertex("Map 1"));
    }

    /** Hive's pruner would wait for ever for a missing event: the splits are refused, naming what is missing. */
    @Test
    void missingEventsAreRefusedNotWaitedFor() {
        HiveException missing = assertThrows(HiveException.class, () -> VertexSplits.make(
                ApplicationId.newInstance(7, 3), "dag", "Map 1", 0, new Configuration(false), PRUNED,
                Map.of("Map 2", 2), List.of(withSource(event((byte) 1)))));
        assertEquals("Dynamic partition pruning of Map 1 (store_sales) expected 1 events from each of the 2 tasks "
                + "of Map 2, and got 1", missing.getMessage());
    }

    private static InputInitializerEvent withSource(InputInitializerEvent event) {
        event.setSourceVertexName("Map 2");
        return event;
    }
}
