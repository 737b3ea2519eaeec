package org.datampi.hive.dag;

import java.lang.reflect.Field;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.GlobalWorkMapFactory;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.plan.BaseWork;

/**
 * A bend of Hive's for split generators run side by side ({@link ClientSplits} in Hive's JVM, PrunedSplits on rank 0
 * while its main thread runs tasks). Hive caches the plans it reads ({@code Utilities.getMapWork}) in one
 * process-wide {@code HashMap} outside HiveServer2 and LLAP ({@code GlobalWorkMapFactory}), and a
 * {@code HiveSplitGenerator} reads its vertex's MapWork through it twice: when it is made (dynamic partition pruning
 * then prunes that object) and again inside {@code HiveInputFormat.getSplits}. Shared, the map lost the pruned plan
 * between the two: to another generator's concurrent resize, or to a task ending on another thread, which empties
 * the whole map ({@code Utilities.clearWorkMap}); {@code getSplits} then read the plan afresh, unpruned, and the scan
 * read every partition (TPC-DS q29 at scale 1: 1,823 partitions where pruning kept 30, the right answer five seconds
 * late). The map is replaced, once per process and before any generator or task runs ({@code DataMPIEngine.install},
 * the ranks' start), by one map per thread: what Hive itself uses in HiveServer2 and LLAP, where threads run queries
 * side by side, each reading a plan it did not cache from the plan's file or configuration. Loud when Hive's fields
 * change.
 */
public final class HivePlanCache {
    /** Whether Hive's map has been replaced: JVM-wide, as the map it replaces is. */
    private static boolean perThread;

    private HivePlanCache() {
    }

    /** Gives each thread its own of Hive's plan cache; idempotent. */
    public static synchronized void makePerThread() {
        if (perThread) {
            return;
        }
        try {
            Field factoryField = Utilities.class.getDeclaredField("gWorkMap");
            factoryField.setAccessible(true);
            GlobalWorkMapFactory factory = (GlobalWorkMapFactory) factoryField.get(null);
            Field mapField = GlobalWorkMapFactory.class.getDeclaredField("gWorkMap");
            mapField.setAccessible(true);
            // What was cached before is dropped: a cache, read again from the plans on a miss.
            mapField.set(factory, new PerThreadMap());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("Cannot give each thread its own of Hive's plan cache with this Hive "
                    + "version (Utilities.gWorkMap, GlobalWorkMapFactory.gWorkMap): " + e, e);
        }
        perThread = true;
    }

    /** A map whose every operation is on the calling thread's own map. */
    private static final class PerThreadMap implements Map<Path, BaseWork> {
        private final ThreadLocal<Map<Path, BaseWork>> maps = ThreadLocal.withInitial(HashMap::new);

        @Override
        public int size() {
            return maps.get().size();
        }

        @Override
        public boolean isEmpty() {
            return maps.get().isEmpty();
        }

        @Override
        public boolean containsKey(Object key) {
            return maps.get().containsKey(key);
        }

        @Override
        public boolean containsValue(Object value) {
            return maps.get().containsValue(value);
        }

        @Override
        public BaseWork get(Object key) {
            return maps.get().get(key);
        }

        @Override
        public BaseWork put(Path key, BaseWork value) {
            return maps.get().put(key, value);
        }

        @Override
        public BaseWork remove(Object key) {
            return maps.get().remove(key);
        }

        @Override
        public void putAll(Map<? extends Path, ? extends BaseWork> all) {
            maps.get().putAll(all);
        }

        @Override
        public void clear() {
            maps.get().clear();
        }

        @Override
        public Set<Path> keySet() {
            return maps.get().keySet();
        }

        @Override
        public Collection<BaseWork> values() {
            return maps.get().values();
        }

        @Override
        public Set<Entry<Path, BaseWork>> entrySet() {
            return maps.get().entrySet();
        }
    }
}
