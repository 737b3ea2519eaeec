package org.datampi.hive.dag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.plan.MapWork;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hive's plan cache as split generators use it side by side: a plan one thread cached is the object it finds again
 * (a plan lost from the cache would be read again from its file, which these plans do not have).
 */
class HivePlanCacheTest {
    private static final int THREADS = 8;
    private static final int PLANS_PER_THREAD = 2_000;

    @BeforeAll
    static void perThread() {
        HivePlanCache.makePerThread();
        HivePlanCache.makePerThread();
    }

    /** As on rank 0: a task ending on the main thread empties the cache while a generator holds its pruned plan. */
    @Test
    void aPlanOutlivesAnotherThreadClearingTheCache() throws Exception {
        Configuration conf = plan("kept");
        MapWork work = new MapWork();
        Utilities.setMapWork(conf, work);
        Thread task = new Thread(() -> Utilities.clearWorkMap(new Configuration(false)));
        task.start();
        task.join();
        assertSame(work, Utilities.getMapWork(conf));
        Utilities.clearWorkMapForConf(conf);
    }

    @Test
    void plansCachedSideBySideAreEachFoundAgain() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CyclicBarrier allCached = new CyclicBarrier(THREADS);
        List<Future<Integer>> found = new ArrayList<>();
        for (int thread = 0; thread < THREADS; thread++) {
            int number = thread;
            found.add(pool.submit(() -> {
                List<Configuration> confs = new ArrayList<>();
                List<MapWork> works = new ArrayList<>();
                for (int i = 0; i < PLANS_PER_THREAD; i++) {
                    Configuration conf = plan(number + "/" + i);
                    MapWork work = new MapWork();
                    Utilities.setMapWork(conf, work);
                    confs.add(conf);
                    works.add(work);
                }
                allCached.await();
                for (int i = 0; i < PLANS_PER_THREAD; i++) {
                    assertSame(works.get(i), Utilities.getMapWork(confs.get(i)));
                    Utilities.clearWorkMapForConf(confs.get(i));
                }
                return PLANS_PER_THREAD;
            }));
        }
        int total = 0;
        try {
            for (Future<Integer> thread : found) {
                total += thread.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(THREADS * PLANS_PER_THREAD, total);
    }

    private static Configuration plan(String name) {
        Configuration conf = new Configuration(false);
        HiveConf.setVar(conf, HiveConf.ConfVars.PLAN, "file:/no-such-plans/" + name);
        return conf;
    }
}
