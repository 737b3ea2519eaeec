package org.datampi.hive.dag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.exec.ObjectCache;
import org.apache.hadoop.hive.ql.exec.ObjectCacheFactory;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.exec.tez.HiveSplitGenerator;
import org.apache.hadoop.hive.ql.exec.tez.MapRecordProcessor;
import org.apache.hadoop.hive.ql.plan.MapWork;
import org.apache.hadoop.hive.ql.plan.PartitionDesc;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.tez.common.TezUtils;
import org.apache.tez.dag.api.ProcessorDescriptor;
import org.apache.tez.dag.records.TezDAGID;
import org.apache.tez.dag.records.TezTaskAttemptID;
import org.apache.tez.dag.records.TezTaskID;
import org.apache.tez.dag.records.TezVertexID;
import org.apache.tez.runtime.api.impl.TaskSpec;
import org.apache.tez.runtime.common.objectregistry.ObjectRegistryImpl;
import org.junit.jupiter.api.Test;

/**
 * The plan a pruned vertex's tasks get, found by Hive where its map processor looks (its own cache wrapper over the
 * task's object registry, with its own key): fails if a Hive version moves the seam.
 */
class PrunedMapPlanTest {
    private static final Path KEPT = new Path("file:/warehouse/store_returns/sr_returned_date_sk=2451545");
    private static final List<Path> PARTITIONS = List.of(
            new Path("file:/warehouse/store_returns/sr_returned_date_sk=2450820"), KEPT,
            new Path("file:/warehouse/store_returns/sr_returned_date_sk=2452822"));

    @Test
    void hivesMapProcessorFindsThePlanWithOnlyTheKeptPartitions() throws Exception {
        HivePlanCache.makePerThread();
        Configuration conf = new Configuration(false);
        HiveConf.setVar(conf, HiveConf.ConfVars.HIVE_EXECUTION_ENGINE, "tez");
        HiveConf.setVar(conf, HiveConf.ConfVars.HIVE_QUERY_ID, "hive_20261128_q1");
        HiveConf.setVar(conf, HiveConf.ConfVars.PLAN, "file:/no-such-plans/pruned");
        MapWork written = new MapWork();
        for (Path partition : PARTITIONS) {
            written.addPathToAlias(partition, "store_returns");
            written.addPathToPartitionInfo(partition, new PartitionDesc());
        }
        // The plan as the task reads it (from this thread's cache: these plans have no file).
        Utilities.setMapWork(conf, written);
        TaskSpec spec = spec("Map 3", conf);
        ObjectRegistryImpl registry = new ObjectRegistryImpl();

        PrunedMapPlan.install(registry, spec, List.of(KEPT.toString()));

        org.apache.hadoop.hive.ql.exec.tez.ObjectCache.setupObjectRegistry(registry);
        try {
            // As MapRecordProcessor.init asks for its plan.
            ObjectCache cache = ObjectCacheFactory.getCache(conf, "hive_20261128_q1", true);
            MapWork found = cache.retrieve("Map 3" + hiveMapPlanKey(), () -> {
                throw new AssertionError("Hive read the plan itself");
            });
            assertEquals(Set.of(KEPT), found.getPathToAliases().keySet());
            assertEquals(Set.of(KEPT), found.getPathToPartitionInfo().keySet());

            PrunedMapPlan.install(registry, spec, List.of(KEPT.toString()));
            assertSame(found, cache.retrieve("Map 3" + hiveMapPlanKey()), "a later task finds the same plan");
        } finally {
            org.apache.hadoop.hive.ql.exec.tez.ObjectCache.setupObjectRegistry(null);
            Utilities.clearWorkMapForConf(conf);
        }
    }

    /** Rank 0 reads what pruning kept from the plan its split generator pruned, where Hive's generator keeps it. */
    @Test
    void theKeptPathsAreThoseOfThePlanHivesSplitGeneratorHolds() throws Exception {
        MapWork pruned = new MapWork();
        pruned.addPathToAlias(KEPT, "store_returns");
        pruned.addPathToPartitionInfo(KEPT, new PartitionDesc());
        pruned.deriveLlap(new Configuration(false), false);
        HiveSplitGenerator generator = new HiveSplitGenerator(new Configuration(false), pruned, false);
        assertEquals(List.of(KEPT.toString()), PrunedMapPlan.keptPaths(generator));
    }

    @Test
    void ourKeyIsHives() throws Exception {
        assertEquals(hiveMapPlanKey(), PrunedMapPlan.MAP_PLAN_KEY);
    }

    private static String hiveMapPlanKey() throws ReflectiveOperationException {
        Field key = MapRecordProcessor.class.getDeclaredField("MAP_PLAN_KEY");
        key.setAccessible(true);
        return (String) key.get(null);
    }

    private static TaskSpec spec(String vertexName, Configuration processorConf) throws Exception {
        TezVertexID vertex = TezVertexID.getInstance(TezDAGID.getInstance(ApplicationId.newInstance(7, 3), 1), 2);
        return new TaskSpec(TezTaskAttemptID.getInstance(TezTaskID.getInstance(vertex, 0), 0), "dag", vertexName, 1,
                ProcessorDescriptor.create(MapRecordProcessor.class.getName())
                        .setUserPayload(TezUtils.createUserPayloadFromConf(processorConf)),
                new ArrayList<>(), new ArrayList<>(), null, new Configuration(false));
    }
}
