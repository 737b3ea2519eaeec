package org.datampi.hive.dag;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.exec.tez.HiveSplitGenerator;
import org.apache.hadoop.hive.ql.plan.MapWork;
import org.apache.hadoop.mapred.JobConf;
import org.apache.tez.common.TezUtils;
import org.apache.tez.runtime.api.ObjectRegistry;
import org.apache.tez.runtime.api.impl.TaskSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bend of Hive's: the tasks of a vertex that dynamic partition pruning pruned get Hive's plan with only the input
 * directories pruning kept. Hive prunes only the split generator's copy of the vertex's MapWork (its
 * {@code DynamicPartitionPruner} removes the pruned partitions from that object); the tasks read the plan as the
 * compiler wrote it, with every partition of the table, and each task's map operator walks all of them: it builds a
 * context per partition when it starts and, at each new file, finds the file's partition by comparing its path with
 * every one ({@code AbstractMapOperator.getNominalPath}). TPC-DS q1 at scale 1 keeps 366 of store_returns' 2,003
 * partitions, and in JFR profiles of its ranks that walk was a sixth of its map tasks' time (BENCHMARKS.md). Hive on
 * Tez pays the same in every task.
 *
 * <p>The seam is Hive's own: {@code MapRecordProcessor} takes its MapWork from the task's object cache under
 * {@code <queryId>_<vertex>__MAP_PLAN__} (reading the plan only on a miss), and in a Tez task that cache is the
 * container's object registry ({@code ObjectCacheFactory}, {@code ObjectCacheWrapper}), which {@link
 * VertexTaskRunner} owns. Rank 0 reads which directories pruning kept from its split generator's plan
 * ({@link #keptPaths}) and sends them with the vertex's tasks; before the vertex's first task on a rank, the plan is
 * read as Hive would read it, the other directories are dropped as Hive's pruner drops them, and the result is put
 * where Hive looks. Tests compare the key with Hive's (its constant, and the key Hive's own cache wrapper makes) and
 * read the generator's field, so a Hive that moves either fails the build; a key missed at run time would only make
 * Hive read the whole plan itself, as before: slower, never wrong.
 */
public final class PrunedMapPlan {
    private static final Logger LOG = LoggerFactory.getLogger(PrunedMapPlan.class);
    /**
     * Hive's suffix of a map vertex's plan key ({@code MapRecordProcessor.MAP_PLAN_KEY}, private): a test compares
     * it with Hive's, so that a Hive that changes it fails the build, not users' queries.
     */
    static final String MAP_PLAN_KEY = "__MAP_PLAN__";
    /** The field in which Hive's split generator keeps the plan it prunes. */
    static final String GENERATOR_PLAN_FIELD = "work";

    private PrunedMapPlan() {
    }

    /**
     * The input directories that dynamic partition pruning kept in GENERATOR's plan, once it has made its splits:
     * Hive's generator prunes its own MapWork, which it keeps in a private field ({@code work}; the copy it put in
     * Hive's plan cache is dropped when it ends), read here.
     */
    static List<String> keptPaths(HiveSplitGenerator generator) {
        MapWork work;
        try {
            Field field = HiveSplitGenerator.class.getDeclaredField(GENERATOR_PLAN_FIELD);
            field.setAccessible(true);
            work = (MapWork) requireNonNull(field.get(generator), "HiveSplitGenerator.work is null");
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("Cannot read the plan Hive's split generator pruned with this Hive "
                    + "version (HiveSplitGenerator." + GENERATOR_PLAN_FIELD + "): " + e, e);
        }
        return work.getPathToPartitionInfo().keySet().stream().map(Path::toString).toList();
    }

    /**
     * Puts the plan of the task SPEC's vertex, with only the KEPT input directories, in REGISTRY where Hive's
     * processor looks for it, unless the registry has the vertex's plan already (an earlier task of the vertex on
     * this rank).
     */
    static void install(ObjectRegistry registry, TaskSpec spec, List<String> kept) throws IOException {
        requireNonNull(registry, "registry is null");
        requireNonNull(kept, "kept is null");
        // The processor's configuration, as Hive's TezProcessor makes its JobConf from it.
        JobConf conf = new JobConf(TezUtils.createConfFromUserPayload(spec.getProcessorDescriptor().getUserPayload()));
        String key = registryKey(HiveConf.getVar(conf, HiveConf.ConfVars.HIVE_QUERY_ID), spec.getVertexName());
        if (registry.get(key) != null) {
            return;
        }
        MapWork work = Utilities.getMapWork(conf);
        int before = work.getPathToPartitionInfo().size();
        keepOnly(work, kept);
        registry.cacheForVertex(key, work);
        LOG.info("{}: its tasks get Hive's plan with the {} input directories dynamic partition pruning kept, of {}",
                spec.getVertexName(), work.getPathToPartitionInfo().size(), before);
    }

    /** The key under which Hive's map processor of query QUERY_ID caches VERTEX's plan. */
    static String registryKey(String queryId, String vertex) {
        // ObjectCacheWrapper prefixes the query's id to the processor's own key.
        return queryId + "_" + vertex + MAP_PLAN_KEY;
    }

    /**
     * Drops from WORK every input directory not in KEPT, as Hive's DynamicPartitionPruner drops a pruned partition
     * (from the paths' partitions and aliases; the aliases' partition descriptions stay, the table's).
     */
    static void keepOnly(MapWork work, List<String> kept) {
        Set<String> keep = new HashSet<>(kept);
        for (Path path : List.copyOf(work.getPathToPartitionInfo().keySet())) {
            if (!keep.contains(path.toString())) {
                work.getPathToPartitionInfo().remove(path);
                work.removePathToAlias(path);
            }
        }
    }
}
