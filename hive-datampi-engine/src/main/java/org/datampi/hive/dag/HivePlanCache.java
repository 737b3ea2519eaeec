package org.datampi.hive.dag;

import java.lang.reflect.Field;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.GlobalWorkMapFactory;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.plan.BaseWork;

/**
 * A bend of Hive's for split generators run side by side ({@link ClientSplits} in Hive's JVM, PrunedSplits on rank
 * 0). Hive caches the plans it reads ({@code Utilities.getMapWork}) in one process-wide {@code HashMap} outside
 * HiveServer2 and LLAP ({@code GlobalWorkMapFactory}), and a {@code HiveSplitGenerator} reads its vertex's MapWork
 * through it twice: when it is made (dynamic partition pruning then prunes that object) and again inside
 * {@code HiveInputFormat.getSplits}. Two generators at once race on the plain map: an entry lost to the other's
 * resize makes {@code getSplits} read the plan afresh, unpruned, and the scan reads every partition (TPC-DS q29 at
 * scale 1: 1,823 partitions where pruning kept 30, with the right answer, five seconds later). The map is replaced,
 * once per process and before any generator runs, by a synchronized one holding what the old one held. Hive's own
 * HiveServer2 path (a map per thread) is untouched. Loud when Hive's fields change.
 */
public final class HivePlanCache {
    private static boolean threadSafe;

    private HivePlanCache() {
    }

    /** Makes Hive's process-wide plan cache safe for threads; idempotent. */
    public static synchronized void makeThreadSafe() {
        if (threadSafe) {
            return;
        }
        try {
            Field factoryField = Utilities.class.getDeclaredField("gWorkMap");
            factoryField.setAccessible(true);
            GlobalWorkMapFactory factory = (GlobalWorkMapFactory) factoryField.get(null);
            Field mapField = GlobalWorkMapFactory.class.getDeclaredField("gWorkMap");
            mapField.setAccessible(true);
            @SuppressWarnings("unchecked")
            Map<Path, BaseWork> current = (Map<Path, BaseWork>) mapField.get(factory);
            Map<Path, BaseWork> synchronizedMap = Collections.synchronizedMap(new HashMap<>());
            if (current != null) {
                synchronizedMap.putAll(current);
            }
            mapField.set(factory, synchronizedMap);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("Cannot make Hive's plan cache safe for split generators run side by "
                    + "side with this Hive version (Utilities.gWorkMap, GlobalWorkMapFactory.gWorkMap): " + e, e);
        }
        threadSafe = true;
    }
}
