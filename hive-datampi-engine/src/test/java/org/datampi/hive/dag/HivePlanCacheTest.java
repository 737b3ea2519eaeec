package org.datampi.hive.dag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.plan.MapWork;
import org.junit.jupiter.api.Test;

class HivePlanCacheTest {
    private static final int THREADS = 8;
    private static final int PLANS_PER_THREAD = 2_000;

    /**
     * Plans cached by threads side by side (as split generators cache their vertices' MapWork) are each found again,
     * the same object: a plan lost from the cache would be read again from its file, which these do not have.
     */
    @Test
    void everyPlanCachedSideBySideIsFoundAgain() throws Exception {
        HivePlanCache.makeThreadSafe();
        HivePlanCache.makeThreadSafe();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<Map.Entry<Configuration, MapWork>>>> cached = new ArrayList<>();
        for (int thread = 0; thread < THREADS; thread++) {
            int number = thread;
            cached.add(pool.submit(() -> {
                start.await();
                List<Map.Entry<Configuration, MapWork>> plans = new ArrayList<>();
                for (int plan = 0; plan < PLANS_PER_THREAD; plan++) {
                    Configuration conf = new Configuration(false);
                    HiveConf.setVar(conf, HiveConf.ConfVars.PLAN, "file:/no-such-plans/" + number + "/" + plan);
                    MapWork work = new MapWork();
                    Utilities.setMapWork(conf, work);
                    plans.add(Map.entry(conf, work));
                }
                return plans;
            }));
        }
        start.countDown();
        int found = 0;
        try {
            for (Future<List<Map.Entry<Configuration, MapWork>>> thread : cached) {
                for (Map.Entry<Configuration, MapWork> plan : thread.get()) {
                    assertSame(plan.getValue(), Utilities.getMapWork(plan.getKey()));
                    Utilities.clearWorkMapForConf(plan.getKey());
                    found++;
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(THREADS * PLANS_PER_THREAD, found);
    }
}
