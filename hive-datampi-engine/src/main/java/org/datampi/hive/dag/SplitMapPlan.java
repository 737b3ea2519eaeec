package org.datampi.hive.dag;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.exec.tez.DagUtils;
import org.apache.hadoop.hive.ql.exec.tez.MapTezProcessor;
import org.apache.hadoop.hive.ql.plan.MapWork;
import org.apache.hadoop.hive.ql.plan.PartitionDesc;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapred.FileSplit;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.tez.common.TezUtils;
import org.apache.tez.runtime.api.ObjectRegistry;
import org.apache.tez.runtime.api.impl.TaskSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bend of Hive's: each task of a map vertex gets Hive's plan with only the partitions its own split reads. Hive's
 * plan of a scan names every partition the compiler kept (all of a partitioned fact table's 1,823 to 2,113 when
 * nothing but dynamic partition pruning cuts them, which prunes only the split generator's copy), and each task's map
 * operator walks all of them: it sets up a context per partition when it starts and, at each new file, finds the
 * file's partition by comparing its path with each one in turn ({@code AbstractMapOperator.getNominalPath}), files
 * times partitions. In JFR profiles of the ranks that walk was a sixth of TPC-DS q1's map tasks' time (366 files of
 * store_returns, pruned) and a fifth of q5's (all 1,824 files of web_sales); Hive on Tez pays the same in every task.
 *
 * <p>The seam is Hive's own: {@code MapRecordProcessor} takes its MapWork from the task's object cache under
 * {@code <queryId>_<vertex>__MAP_PLAN__} (reading the plan only on a miss), and in a Tez task that cache is the
 * container's object registry ({@code ObjectCacheFactory}, {@code ObjectCacheWrapper}), which {@link
 * VertexTaskRunner} owns. The vertex's plan is read once per rank, as Hive would read it; before each task its
 * partitions are cut to those that hold the split's files, in the plan's order, and the plan is put where Hive looks.
 * Every partition whose directory holds a file of the split stays (not only the nearest), so Hive's walk finds for each
 * file the partition it would have found in the whole plan; a file in no partition of the plan leaves the plan whole,
 * for Hive to report. Tests compare the key with Hive's (its constant, and the key Hive's own cache wrapper makes), so
 * a Hive that moves it fails the build; a key missed at run time would only let Hive read the whole plan itself, as
 * before: slower, never wrong.
 *
 * <p>Not thread-safe: one per vertex on a rank, which runs one task at a time.
 */
final class SplitMapPlan {
    private static final Logger LOG = LoggerFactory.getLogger(SplitMapPlan.class);
    /**
     * Hive's suffix of a map vertex's plan key ({@code MapRecordProcessor.MAP_PLAN_KEY}, private): a test compares
     * it with Hive's, so that a Hive that changes it fails the build, not users' queries.
     */
    static final String MAP_PLAN_KEY = "__MAP_PLAN__";

    private final String vertex;
    private final String queryId;
    private final String key;
    private final MapWork work;
    private final Map<Path, List<String>> aliases;
    private final Map<Path, PartitionDesc> partitions;
    /**
     * The plan's partitions by their directory without scheme and authority: a file matches on its path alone, more
     * loosely than Hive, which also compares schemes and authorities, so a cut keeps at least Hive's matches.
     */
    private final Map<String, List<Path>> byDirectory = new HashMap<>();
    private final SerializationFactory serialization;
    private boolean logged;

    private SplitMapPlan(String vertex, String queryId, MapWork work, JobConf conf) {
        this.vertex = requireNonNull(vertex, "vertex is null");
        this.queryId = requireNonNull(queryId, "queryId is null");
        this.key = registryKey(queryId, vertex);
        this.work = requireNonNull(work, "work is null");
        this.aliases = new LinkedHashMap<>(work.getPathToAliases());
        this.partitions = new LinkedHashMap<>(work.getPathToPartitionInfo());
        for (Path partition : aliases.keySet()) {
            byDirectory.computeIfAbsent(partition.toUri().getPath(), directory -> new ArrayList<>(1)).add(partition);
        }
        this.serialization = new SerializationFactory(conf);
    }

    /**
     * The plan of VERTEX for its tasks on this rank, read as Hive's processor reads it; empty for a vertex that Hive's
     * map processor does not run from one plan of one table (a vertex fed by edges only, a sort-merge join's several
     * plans, a plan that scans several tables, whose operators a cut could leave half set up). Read once per DAG and
     * vertex ({@link VertexTaskRunner}): the plan object is Hive's cached one, which each task's cut then changes.
     */
    static Optional<SplitMapPlan> of(DagVertex vertex) throws IOException {
        TaskSpec template = vertex.template();
        if (vertex.rootInput().isEmpty()
                || !MapTezProcessor.class.getName().equals(template.getProcessorDescriptor().getClassName())) {
            return Optional.empty();
        }
        // The processor's configuration, as Hive's TezProcessor makes its JobConf from it.
        JobConf conf = new JobConf(TezUtils.createConfFromUserPayload(
                template.getProcessorDescriptor().getUserPayload()));
        if (conf.get(DagUtils.TEZ_MERGE_WORK_FILE_PREFIXES) != null) {
            return Optional.empty();
        }
        MapWork work = Utilities.getMapWork(conf);
        if (work.getAliasToWork().size() != 1) {
            return Optional.empty();
        }
        return Optional.of(new SplitMapPlan(vertex.name(), HiveConf.getVar(conf, HiveConf.ConfVars.HIVE_QUERY_ID),
                work, conf));
    }

    /** Puts the plan, cut to the partitions TASK's split reads, in REGISTRY where Hive's map processor looks. */
    void install(ObjectRegistry registry, int taskIndex, DagVertex.VertexTask task) {
        Optional<Set<Path>> read = partitionsRead(taskIndex, task);
        work.setPathToAliases(cut(aliases, read));
        Map<Path, PartitionDesc> taskPartitions = cut(partitions, read);
        work.setPathToPartitionInfo(taskPartitions);
        registry.cacheForVertex(key, work);
        String message = "Hive query {}: {} task {}: Hive's plan with the {} partitions its split reads, of {}";
        Object[] values = {queryId, vertex, taskIndex, taskPartitions.size(), partitions.size()};
        if (logged) {
            LOG.debug(message, values);
        } else {
            // Once per vertex and rank at INFO: per task it would crowd the log.
            LOG.info(message, values);
            logged = true;
        }
    }

    /** The entries of the whole plan's map ALL whose partitions are READ, in the plan's order; all when unknown. */
    private static <T> Map<Path, T> cut(Map<Path, T> all, Optional<Set<Path>> read) {
        Map<Path, T> kept = new LinkedHashMap<>();
        all.forEach((partition, value) -> {
            if (read.isEmpty() || read.get().contains(partition)) {
                kept.put(partition, value);
            }
        });
        return kept;
    }

    /**
     * The plan's partitions whose directories hold a file of the task's split (a file's own path and each directory
     * above it); empty when the split cannot be read here, has no part, or has a part that is not a file's or a file
     * in none of the plan's partitions (the task then gets the whole plan, and Hive reports what it makes of it).
     */
    private Optional<Set<Path>> partitionsRead(int taskIndex, DagVertex.VertexTask task) {
        try {
            List<InputSplit> parts = task.parts(serialization);
            if (parts.isEmpty()) {
                return Optional.empty();
            }
            Set<Path> read = new HashSet<>();
            for (InputSplit part : parts) {
                if (!(part instanceof FileSplit file)) {
                    return Optional.empty();
                }
                boolean found = false;
                for (Path directory = file.getPath(); directory != null; directory = directory.getParent()) {
                    List<Path> matches = byDirectory.get(directory.toUri().getPath());
                    if (matches != null) {
                        read.addAll(matches);
                        found = true;
                    }
                }
                if (!found) {
                    return Optional.empty();
                }
            }
            return Optional.of(read);
        } catch (IOException | RuntimeException e) {
            LOG.warn("{} task {}: its split could not be read here, so it gets Hive's whole plan", vertex, taskIndex,
                    e);
            return Optional.empty();
        }
    }

    /** The key under which Hive's map processor of query QUERY_ID caches VERTEX's plan. */
    static String registryKey(String queryId, String vertex) {
        // ObjectCacheWrapper prefixes the query's id to the processor's own key.
        return queryId + "_" + vertex + MAP_PLAN_KEY;
    }
}
