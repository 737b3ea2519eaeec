package org.datampi.hive.dag;

import java.util.concurrent.atomic.AtomicReference;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.llap.io.api.LlapProxy;
import org.apache.hadoop.hive.llap.tezplugins.LlapTezUtils;
import org.apache.hadoop.hive.llap.counters.FragmentCountersMap;
import org.apache.tez.common.counters.TezCounters;
import org.apache.tez.dag.records.TezTaskAttemptID;
import org.apache.tez.runtime.LogicalIOProcessorRuntimeTask;
import org.datampi.hive.conf.DataMPISettings;

/**
 * Hive's LLAP I/O layer in a rank (issue 52): LlapIoImpl (hive-llap-io, compiled from Hive's source release) with its
 * ORC metadata and data caches, started in the rank's JVM by the first job that asks for it
 * ({@link DataMPISettings#IO_CACHE_SIZE}) and kept for the rank's life, so that the queries its group serves read the
 * ORC data an earlier one read from memory. A Hive bend, kept here:
 * <ul>
 * <li>Hive reads through LLAP I/O where {@code hive.llap.io.enabled} is set in a task's configuration and
 * {@link LlapProxy#getIo()} is up (HiveInputFormat.wrapForLlap); outside an LLAP daemon the setting's default is off.
 * The client sets it in the query's configuration from the cache's size before Hive compiles the query
 * (plan.DataMPIEngine.useIoCache), so that the compiler sees it too and a query without the cache never reads through
 * one. The plan stays Hive's container-mode plan: LlapDecider and the daemon's registry are not involved, and
 * {@code LlapProxy.setDaemon} is not called (it would switch Hive's plan and object caches to the daemon's).</li>
 * <li>The cache is on the heap (Hive's default is direct memory, outside the heap the rank was sized with), its
 * allocation made when it starts; one I/O thread (a rank runs one task at a time); ORC only (no text re-encoding);
 * its threads daemon threads ({@link #start}).</li>
 * <li>LLAP's counters are kept by task attempt (FragmentCountersMap), as the daemon registers them
 * (LlapTaskReporter): a task registers its own, so that cache hits and misses reach its counters.</li>
 * <li>Each ORC split is read on the rank whose cache holds it: its location is that rank ({@link RankAffinity}), and
 * rank 0's scheduler gives a rank its own tasks first.</li>
 * </ul>
 * A first step, off by default. Not yet: Hive's shared Parquet input format (HiveInputFormat keeps one per class)
 * keeps the cache's metadata once a job that asks for the cache has read Parquet on the rank.
 */
public final class RankIoCache {
    /** The heap this JVM's cache holds, once started (one per JVM, as LlapProxy's I/O layer is). */
    private static volatile long heldBytes;

    private RankIoCache() {
    }

    /**
     * The heap a task's runtime may share out among its inputs and outputs (Tez's memory distributor: sort buffers,
     * shuffle merges, hash tables): the JVM's, less what a cache started in it holds, whether or not the task's job
     * reads through it.
     */
    static long heapLeft() {
        return Runtime.getRuntime().maxMemory() - heldBytes;
    }

    /** Whether QUERY asks for the cache; if so, starts it in this JVM unless it is up (the first size stays). */
    public static synchronized boolean startIfAsked(Configuration query) {
        long megabytes = DataMPISettings.ioCacheMegabytes(query);
        if (megabytes == 0) {
            return false;
        }
        if (LlapProxy.getIo() == null) {
            // Hadoop's and Hive's defaults and the cache's settings only: LlapIoImpl keeps this configuration for the
            // rank's life, and no session's other settings (a hydration strategy, say) are to go with it.
            Configuration io = new Configuration();
            io.set("hive.llap.io.memory.mode", "cache");
            io.set("hive.llap.io.memory.size", megabytes + "Mb");
            io.setBoolean("hive.llap.io.allocator.direct", false);
            io.setBoolean("hive.llap.io.allocator.mmap", false);
            // Arenas of at most 1 GB, Hive's largest (the size is a power of two: DataMPISettings checks it).
            io.setLong("hive.llap.io.allocator.arena.count", Math.max(1, megabytes / 1024));
            io.setInt("hive.llap.io.threadpool.size", 1);
            io.setBoolean("hive.llap.io.encode.enabled", false);
            io.set("hive.llap.io.trace.size", "0");
            // A file is opened by its path, not by HDFS's /.reserved/.inodes/ID; its id in the cache is still the
            // split's (HDFS's inode id on the default file system, else path, length and modification time).
            io.setBoolean("hive.llap.io.use.fileid.path", false);
            start(io);
            heldBytes = megabytes << 20;
        }
        return true;
    }

    /**
     * Starts LlapIoImpl with IO. Hive's cache-usage tracker (CacheContentsTracker, whose tags the cache's reads need)
     * starts a thread that nothing stops and that is not a daemon thread; a thread is a daemon thread when the one
     * that makes it is, so LlapIoImpl is made on a daemon thread of its own, and the rank's JVM can still end.
     */
    private static void start(Configuration io) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread starter = new Thread(() -> {
            try {
                LlapProxy.initializeLlapIo(io);
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "datampi-io-cache-start");
        starter.setDaemon(true);
        // Its threads' class loader the engine's, not the job's (which the job's end closes).
        starter.setContextClassLoader(RankIoCache.class.getClassLoader());
        starter.start();
        try {
            starter.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while Hive's LLAP I/O layer started", e);
        }
        if (failure.get() != null) {
            throw new IllegalStateException("Hive's LLAP I/O layer did not start (" + DataMPISettings.IO_CACHE_SIZE
                    + "=" + io.get("hive.llap.io.memory.size") + "): " + failure.get(), failure.get());
        }
    }

    /** Registers RUNTIME's counters as ATTEMPT's for LLAP's readers; returns the key to {@link #unregister} with. */
    static String register(TezTaskAttemptID attempt, LogicalIOProcessorRuntimeTask runtime) {
        String fragment = LlapTezUtils.stripAttemptPrefix(attempt.toString());
        TezCounters counters = runtime.addAndGetTezCounter(fragment);
        FragmentCountersMap.registerCountersForFragment(fragment, counters);
        return fragment;
    }

    static void unregister(String fragment) {
        FragmentCountersMap.unregisterCountersForFragment(fragment);
    }
}
