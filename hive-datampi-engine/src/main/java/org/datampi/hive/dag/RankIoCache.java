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
 * {@link LlapProxy#getIo()} is up (HiveInputFormat.wrapForLlap); outside an LLAP daemon the setting's default is off,
 * so a task of a job that asks for the cache gets it set. The plan stays Hive's container-mode plan: LlapDecider and
 * the daemon's registry are not involved, and {@code LlapProxy.setDaemon} is not called (it would switch Hive's plan
 * and object caches to the daemon's).</li>
 * <li>The cache is on the heap (Hive's default is direct memory, outside the heap the rank was sized with), its
 * allocation made when it starts; one I/O thread (a rank runs one task at a time); ORC only (no text re-encoding);
 * its threads daemon threads ({@link #start}).</li>
 * <li>LLAP's counters are kept by task attempt (FragmentCountersMap), as the daemon registers them
 * (LlapTaskReporter): a task registers its own, so that cache hits and misses reach its counters.</li>
 * </ul>
 * A first step, off by default: which rank a split's task goes to does not yet follow the cache.
 */
public final class RankIoCache {
    private RankIoCache() {
    }

    /** Whether QUERY asks for the cache; if so, starts it in this JVM unless it is up (the first size stays). */
    public static boolean startIfAsked(Configuration query) {
        long megabytes = DataMPISettings.ioCacheMegabytes(query);
        if (megabytes == 0) {
            return false;
        }
        if (LlapProxy.getIo() == null) {
            Configuration io = new Configuration(query);
            io.set("hive.llap.io.memory.mode", "cache");
            io.set("hive.llap.io.memory.size", megabytes + "Mb");
            io.setBoolean("hive.llap.io.allocator.direct", false);
            io.setBoolean("hive.llap.io.allocator.mmap", false);
            io.set("hive.llap.io.allocator.alloc.max", Math.min(16, Long.highestOneBit(megabytes)) + "Mb");
            io.setInt("hive.llap.io.allocator.arena.count", 1);
            io.setInt("hive.llap.io.threadpool.size", 1);
            io.setBoolean("hive.llap.io.encode.enabled", false);
            io.set("hive.llap.io.trace.size", "0");
            // Synthetic file ids (path, length, modification time) on every file system: an HDFS inode id would make
            // the reader open /.reserved/.inodes/ID, which a local file system has not.
            io.setBoolean("hive.llap.io.use.fileid.path", false);
            start(io);
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

    /** Sets TASK_CONF to read through the cache (it is up: {@link #startIfAsked}). */
    static void readThrough(Configuration taskConf) {
        taskConf.setBoolean("hive.llap.io.enabled", true);
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
