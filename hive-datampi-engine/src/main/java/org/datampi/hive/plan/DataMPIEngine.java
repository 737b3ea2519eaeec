package org.datampi.hive.plan;

import java.lang.reflect.Field;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.conf.Validator;
import org.apache.hadoop.hive.ql.exec.TaskFactory;
import org.apache.hadoop.hive.ql.plan.MapredWork;
import org.apache.hadoop.hive.ql.plan.TezWork;
import org.apache.hadoop.hive.ql.processors.SetProcessor;
import org.apache.hadoop.mapreduce.counters.Limits;
import org.datampi.hive.conf.DataMPISettings;
import org.datampi.hive.dag.HivePlanCache;
import org.datampi.hive.dag.RankAffinity;
import org.datampi.hive.exec.DataMPIDagTask;
import org.datampi.hive.exec.DataMPITask;

/**
 * The one place where unmodified Hive 4.1 is bent to accept the datampi engine. {@link #install} does three things
 * process-wide, and {@link #compileAsDag} a fourth for one query:
 *
 * <ol>
 * <li>adds "datampi" to the values {@code SET hive.execution.engine=...} accepts. Hive validates that setting
 * against a fixed set (tez, mr) held in a private final field of {@code HiveConf.ConfVars}; the only way to widen it
 * without turning off validation for every key ({@code hive.conf.validation=false}) is to replace that validator,
 * here by reflection, with the same set plus "datampi". A misspelled engine is still refused.</li>
 * <li>makes Hive build a {@link DataMPITask} wherever it builds a MapRedTask, and a {@link DataMPIDagTask} wherever it
 * builds a TezTask, through Hive's public work-to-task table ({@code TaskFactory.taskvec}). A DataMPITask runs on the
 * datampi engine when the session's engine is datampi, and exactly as a MapRedTask otherwise, so that a session can
 * switch between mr and datampi; a DataMPIDagTask likewise runs a query compiled by {@link #compileAsDag} on datampi,
 * and is Hive's TezTask for any other.</li>
 * <li>lets {@code SET} take the hive.datampi.* settings ({@link DataMPISettings}). With hive.conf.validation on,
 * Hive refuses unknown hive.* keys except those in SetProcessor's set of accepted non-HiveConf keys, through which
 * Hive itself admits ORC's settings; ours are added to it, again by reflection.</li>
 * <li>for {@code hive.datampi.plan=dag}, makes one query compile with Hive's Tez compiler ({@link #compileAsDag}).
 * Hive chooses its Tez compiler only for the engine name "tez" (TaskCompilerFactory), and some 60 places in its
 * compiler and runtime (Optimizer, MapredContext, HiveInputFormat, HashTableLoaderFactory...) test that name too, so
 * the whole query, compiled and run, must see "tez": the engine is set to "tez" on the query's own copy of the
 * configuration (Hive's QueryState copies the session's), before Hive picks its compiler, with a marker that sends
 * the query's TezTasks to datampi. The session keeps "datampi"; its next query starts from it again. A query whose
 * compiled plan has no Tez stage (a fetch task Hive answers in the client, DDL, LOAD) is given the session's engine
 * back ({@link #runWithoutDag}): nothing of it runs on the ranks, and Hive's client-side code that tests for "tez"
 * would take paths that need a Tez container (LimitOperator's object cache) or Tez's own classes (the merge of
 * ALTER TABLE ... CONCATENATE).</li>
 * </ol>
 *
 * {@link #install} is idempotent. Hive's compiler takes its MapReduce path for any engine but "tez", which is
 * the MapWork/ReduceWork plan that datampi's O and A tasks run. It also sets Hadoop's JVM-wide cap on counters
 * ({@code mapreduce.job.counters.max}, read once, from the configuration of whichever code counts first, 120 by
 * default) from the session's configuration before anything counts: a DAG stage adds up Hive's counters of all its
 * vertices (TPC-DS q88: 33), and over the cap it would print no summary and give Hive no statistics. And it gives
 * each thread its own of Hive's plan cache before any query runs ({@link HivePlanCache}: split generators run side
 * by side).
 */
public final class DataMPIEngine {
    /**
     * What a DAG query turns off until datampi runs it (docs/dag-mode.md): sort-merge joins need Hive's custom vertex
     * manager over several root inputs, auto reducer parallelism Tez's shuffle vertex manager (step 5). (Bucket map
     * joins run: Hive's custom vertex manager groups the big table's splits by bucket on the client, BucketJoin.
     * Dynamic partition pruning runs: rank 0 makes a pruned vertex's splits from its sources' events,
     * DataMPIDagApplication.) And one
     * for a wrong answer of Hive's own: its native vectorized anti join over a string key
     * (VectorMapJoinAntiJoinStringOperator, Tez plans only) marks a NULL key NOMATCH where its Long and MultiKey
     * siblings mark it MATCH, so NOT EXISTS loses the rows whose key is NULL (found by QueryCorpusIT against Hive on
     * MR; row mode and merge joins are right). Native map joins use the MultiKey operators only, so the anti join
     * stays on (it was turned off before: Hive then planned NOT EXISTS as an outer join and a GROUP BY, which cost
     * TPC-H q21 a vertex; measured in docs/dag-mode.md). And EXPLAIN in Hive's classic form, as for MR and the mapreduce shape:
     * Tez's user-level form (hive.explain.user) renders only stages named "Tez", and a DAG stage is "DataMPI DAG"
     * (DataMPIDagWork). (The other Hive wrong answer that DAG queries are kept from, a Top-N key filter below a
     * GROUP BY with grouping sets, is taken out of the compiled plan: TopNKeyBelowGroupingSets.)
     */
    private static final Map<String, String> DAG_QUERY_SETTINGS = Map.of(
            "hive.explain.user", "false",
            "hive.auto.convert.sortmerge.join", "false",
            "hive.tez.auto.reducer.parallelism", "false",
            "hive.auto.convert.anti.join", "true",
            "hive.vectorized.execution.mapjoin.native.multikey.only.enabled", "true");

    private DataMPIEngine() {
    }

    /** Installs the engine in this JVM, with the session's configuration (its counter cap). */
    public static synchronized void install(Configuration session) {
        Limits.init(session);
        HivePlanCache.makePerThread();
        acceptEngineName();
        acceptSettings();
        for (TaskFactory.TaskTuple<?> tuple : TaskFactory.taskvec) {
            if (tuple.workClass == MapredWork.class) {
                @SuppressWarnings("unchecked")
                TaskFactory.TaskTuple<MapredWork> mapred = (TaskFactory.TaskTuple<MapredWork>) tuple;
                mapred.taskClass = DataMPITask.class;
            } else if (tuple.workClass == TezWork.class) {
                @SuppressWarnings("unchecked")
                TaskFactory.TaskTuple<TezWork> tez = (TaskFactory.TaskTuple<TezWork>) tuple;
                tez.taskClass = DataMPIDagTask.class;
            }
        }
    }

    /**
     * Makes the query whose configuration this is compile with Hive's Tez compiler and run on datampi: called before
     * Hive picks its compiler (a pre-analyze hook), on the query's own configuration, never the session's.
     */
    public static void compileAsDag(HiveConf query) {
        HiveConf.setVar(query, HiveConf.ConfVars.HIVE_EXECUTION_ENGINE, "tez");
        DataMPIDagTask.markForDatampi(query);
        DAG_QUERY_SETTINGS.forEach(query::set);
    }

    /**
     * Makes {@code hive.datampi.io.cache.size} the one switch of Hive's LLAP I/O for a query on datampi, whose own
     * configuration this is (RankIoCache): on for a DAG query with a cache, off for any other. Set before Hive
     * compiles the query, as an LLAP daemon's configuration has it, since the compiler reads it too (the Vectorizer
     * does not vectorize a partition that needs a type conversion under LLAP I/O; MapWork says which inputs use it);
     * off so that a query without the cache never reads through one another job started on its warm ranks, whatever
     * its own {@code hive.llap.io.enabled} says. Transactional tables' files are read without it until a test holds
     * them (hive.llap.io.acid), and other formats are not re-encoded into it (hive.llap.io.encode.enabled). With
     * the cache, each file split is read on the rank whose cache holds it ({@link RankAffinity}).
     */
    public static void useIoCache(HiveConf query, boolean dag) {
        long megabytes = dag ? DataMPISettings.ioCacheMegabytes(query) : 0;
        boolean on = megabytes > 0;
        // The size as a number (auto resolved here, where the ranks' heap is known): the ranks start the cache with it.
        query.set(DataMPISettings.IO_CACHE_SIZE, megabytes + "m");
        // (hive.llap.io.enabled has no default in HiveConf, so no typed setter: Hive's code reads it as a boolean.)
        query.setBoolean(HiveConf.ConfVars.LLAP_IO_ENABLED.varname, on);
        if (on) {
            query.setBoolean(HiveConf.ConfVars.LLAP_IO_ACID_ENABLED.varname, false);
            query.setBoolean(HiveConf.ConfVars.LLAP_IO_ENCODE_ENABLED.varname, false);
            RankAffinity.placeSplitsByRank(query);
        }
    }

    /**
     * Undoes {@link #compileAsDag} for a query whose compiled plan turned out to have no Tez stage: it runs in the
     * client as on the session's engine (the MapReduce path of Hive's runtime, as on mr). Called after Hive's
     * analysis (a post-analyze hook), before the plan's fetch task is initialized and before anything runs.
     *
     * <p>Without it, {@code SELECT * FROM t LIMIT n} fails in the CLI: Hive answers it with a fetch task whose
     * LimitOperator asks ObjectCacheFactory for a cache, which under "tez" is a Tez container's object registry, and
     * outside HiveServer2 fails with "Cannot get a query cache object while working outside of HS2". And
     * {@code ALTER TABLE ... CONCATENATE} would build a Tez merge stage that needs LLAP's Tez plugins.
     */
    public static void runWithoutDag(HiveConf query, HiveConf session) {
        HiveConf.setVar(query, HiveConf.ConfVars.HIVE_EXECUTION_ENGINE,
                HiveConf.getVar(session, HiveConf.ConfVars.HIVE_EXECUTION_ENGINE));
        DataMPIDagTask.unmark(query);
    }

    @SuppressWarnings("unchecked")
    private static void acceptSettings() {
        try {
            Field accepted = SetProcessor.class.getDeclaredField("removedConfigs");
            accepted.setAccessible(true);
            ((Set<String>) accepted.get(null)).addAll(DataMPISettings.ALL);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("Cannot register the hive.datampi.* settings with this Hive version ("
                    + "SetProcessor has no set of accepted keys): " + e, e);
        }
    }

    private static void acceptEngineName() {
        HiveConf.ConfVars engine = HiveConf.ConfVars.HIVE_EXECUTION_ENGINE;
        if (!(engine.getValidator() instanceof Validator.StringSet current)
                || current.getExpected().contains(DataMPISettings.ENGINE)) {
            return;
        }
        Set<String> accepted = new LinkedHashSet<>(current.getExpected());
        accepted.add(DataMPISettings.ENGINE);
        try {
            Field validator = HiveConf.ConfVars.class.getDeclaredField("validator");
            validator.setAccessible(true);
            validator.set(engine, new Validator.StringSet(true, accepted.toArray(String[]::new)));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("Cannot register the datampi engine with this Hive version ("
                    + "HiveConf.ConfVars.HIVE_EXECUTION_ENGINE has no replaceable validator): " + e, e);
        }
    }
}
