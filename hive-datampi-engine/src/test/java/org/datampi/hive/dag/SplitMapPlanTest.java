package org.datampi.hive.dag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.CompilationOpContext;
import org.apache.hadoop.hive.ql.exec.ObjectCache;
import org.apache.hadoop.hive.ql.exec.ObjectCacheFactory;
import org.apache.hadoop.hive.ql.exec.TableScanOperator;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.exec.tez.MapRecordProcessor;
import org.apache.hadoop.hive.ql.exec.tez.MapTezProcessor;
import org.apache.hadoop.hive.ql.plan.MapWork;
import org.apache.hadoop.hive.ql.plan.PartitionDesc;
import org.apache.hadoop.mapred.FileSplit;
import org.apache.hadoop.mapred.TextInputFormat;
import org.apache.hadoop.mapred.split.TezGroupedSplit;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.tez.common.TezUtils;
import org.apache.tez.dag.api.ProcessorDescriptor;
import org.apache.tez.dag.records.TezDAGID;
import org.apache.tez.dag.records.TezTaskAttemptID;
import org.apache.tez.dag.records.TezTaskID;
import org.apache.tez.dag.records.TezVertexID;
import org.apache.tez.mapreduce.hadoop.MRInputHelpers;
import org.apache.tez.runtime.api.impl.TaskSpec;
import org.apache.tez.runtime.common.objectregistry.ObjectRegistryImpl;
import org.junit.jupiter.api.Test;

/**
 * The plan a map task gets, found by Hive where its map processor looks (its own cache wrapper over the task's object
 * registry, with its own key): the partitions of the task's split only, in the plan's order; fails if a Hive version
 * moves the seam.
 */
class SplitMapPlanTest {
    private static final String QUERY = "hive_20261128_q5";
    private static final String TABLE = "file:/warehouse/web_sales/ws_sold_date_sk=";
    private static final List<Path> PARTITIONS = List.of(new Path(TABLE + "2450816"), new Path(TABLE + "2450817"),
            new Path(TABLE + "2450818"));

    @Test
    void hivesMapProcessorFindsThePlanWithOnlyThePartitionsOfTheTasksSplit() throws Exception {
        Configuration conf = processorConf();
        cachePlan(conf, PARTITIONS);
        DagVertex vertex = new DagVertex(template("Map 17", MapTezProcessor.class.getName(), conf), "web_sales",
                List.of(task(PARTITIONS.get(2) + "/000000_0", PARTITIONS.get(0) + "/000000_0"),
                        task("file:/elsewhere/000000_0")));
        ObjectRegistryImpl registry = new ObjectRegistryImpl();
        SplitMapPlan plan = SplitMapPlan.of(vertex).orElseThrow();

        org.apache.hadoop.hive.ql.exec.tez.ObjectCache.setupObjectRegistry(registry);
        try {
            // As MapRecordProcessor.init asks for its plan.
            ObjectCache cache = ObjectCacheFactory.getCache(conf, QUERY, true);
            plan.install(registry, 0, vertex.tasks().get(0));
            MapWork found = cache.retrieve("Map 17" + hiveMapPlanKey(), () -> {
                throw new AssertionError("Hive read the plan itself");
            });
            assertEquals(List.of(PARTITIONS.get(0), PARTITIONS.get(2)), List.copyOf(found.getPathToAliases().keySet()),
                    "the split's partitions, in the plan's order");
            assertEquals(List.of(PARTITIONS.get(0), PARTITIONS.get(2)),
                    List.copyOf(found.getPathToPartitionInfo().keySet()));

            plan.install(registry, 1, vertex.tasks().get(1));
            assertSame(found, cache.retrieve("Map 17" + hiveMapPlanKey()), "the vertex's one plan, cut again");
            assertEquals(PARTITIONS, List.copyOf(found.getPathToAliases().keySet()),
                    "a file in none of the plan's partitions leaves the plan whole, for Hive to report");
        } finally {
            org.apache.hadoop.hive.ql.exec.tez.ObjectCache.setupObjectRegistry(null);
            Utilities.clearWorkMapForConf(conf);
        }
    }

    /**
     * Every partition whose directory holds a file of the split stays, the nearest and any above it, matched on the
     * path alone (a partition written without a scheme too): Hive's walk then finds the partition it would in the
     * whole plan.
     */
    @Test
    void everyPartitionHoldingASplitsFileStays() throws Exception {
        Configuration conf = processorConf();
        Path nested = new Path(PARTITIONS.get(0), "HIVE_UNION_SUBDIR_1");
        Path schemeless = new Path("/warehouse/web_sales/ws_sold_date_sk=2450819");
        cachePlan(conf, List.of(PARTITIONS.get(0), nested, PARTITIONS.get(1), schemeless));
        DagVertex vertex = new DagVertex(template("Map 17", MapTezProcessor.class.getName(), conf), "web_sales",
                List.of(task(nested + "/000000_0", "file:" + schemeless + "/000000_0")));
        ObjectRegistryImpl registry = new ObjectRegistryImpl();
        try {
            SplitMapPlan.of(vertex).orElseThrow().install(registry, 0, vertex.tasks().get(0));
            MapWork found = (MapWork) registry.get(SplitMapPlan.registryKey(QUERY, "Map 17"));
            assertEquals(List.of(PARTITIONS.get(0), nested, schemeless),
                    List.copyOf(found.getPathToPartitionInfo().keySet()));
        } finally {
            Utilities.clearWorkMapForConf(conf);
        }
    }

    @Test
    void onlyHivesMapProcessorOverARootInputGetsACutPlan() throws Exception {
        Configuration conf = processorConf();
        assertTrue(SplitMapPlan.of(new DagVertex(template("Reducer 2", MapTezProcessor.class.getName(), conf), "",
                List.of())).isEmpty(), "a vertex fed by edges");
        assertTrue(SplitMapPlan.of(new DagVertex(template("Map 1", "org.example.OtherProcessor", conf), "web_sales",
                List.of())).isEmpty(), "another processor");
    }

    @Test
    void ourKeyIsHives() throws Exception {
        assertEquals(hiveMapPlanKey(), SplitMapPlan.MAP_PLAN_KEY);
    }

    private static String hiveMapPlanKey() throws ReflectiveOperationException {
        Field key = MapRecordProcessor.class.getDeclaredField("MAP_PLAN_KEY");
        key.setAccessible(true);
        return (String) key.get(null);
    }

    /** Puts in this thread's plan cache, where the task reads it, a scan of web_sales over PARTITIONS. */
    private static void cachePlan(Configuration conf, List<Path> partitions) {
        HivePlanCache.makePerThread();
        MapWork written = new MapWork();
        written.getAliasToWork().put("web_sales", new TableScanOperator(new CompilationOpContext()));
        for (Path partition : partitions) {
            written.addPathToAlias(partition, "web_sales");
            written.addPathToPartitionInfo(partition, new PartitionDesc());
        }
        // These plans have no file: Hive reads them from the cache.
        Utilities.setMapWork(conf, written);
    }

    private static Configuration processorConf() {
        Configuration conf = new Configuration(false);
        HiveConf.setVar(conf, HiveConf.ConfVars.HIVE_EXECUTION_ENGINE, "tez");
        HiveConf.setVar(conf, HiveConf.ConfVars.HIVE_QUERY_ID, QUERY);
        HiveConf.setVar(conf, HiveConf.ConfVars.PLAN, "file:/no-such-plans/cut");
        conf.set("io.serializations", "org.apache.hadoop.io.serializer.WritableSerialization");
        return conf;
    }

    /** A task whose split is Tez's group of one split per FILE, as Hive's split generator makes them. */
    private static DagVertex.VertexTask task(String... files) throws Exception {
        TezGroupedSplit grouped = new TezGroupedSplit(files.length, TextInputFormat.class.getName(), new String[0],
                null);
        for (String file : files) {
            grouped.addSplit(new FileSplit(new Path(file), 0, 100, new String[0]));
        }
        return new DagVertex.VertexTask(MRInputHelpers.createSplitProto(grouped).toByteArray(), List.of());
    }

    private static TaskSpec template(String vertexName, String processor, Configuration conf) throws Exception {
        TezVertexID vertex = TezVertexID.getInstance(TezDAGID.getInstance(ApplicationId.newInstance(7, 3), 1), 2);
        return new TaskSpec(TezTaskAttemptID.getInstance(TezTaskID.getInstance(vertex, 0), 0), "dag", vertexName, 2,
                ProcessorDescriptor.create(processor).setUserPayload(TezUtils.createUserPayloadFromConf(conf)),
                new ArrayList<>(), new ArrayList<>(), null, new Configuration(false));
    }
}
