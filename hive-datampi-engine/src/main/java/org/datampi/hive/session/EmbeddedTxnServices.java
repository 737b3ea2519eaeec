package org.datampi.hive.session;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.MaterializationsRebuildLockCleanerTask;
import org.apache.hadoop.hive.metastore.MetastoreTaskThread;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.apache.hadoop.hive.metastore.leader.CompactorTasks;
import org.apache.hadoop.hive.metastore.leader.LeaderElection;
import org.apache.hadoop.hive.metastore.txn.service.AcidHouseKeeperService;
import org.apache.hadoop.hive.metastore.txn.service.AcidTxnCleanerService;
import org.apache.hadoop.hive.metastore.txn.service.CompactionHouseKeeperService;
import org.apache.hadoop.hive.ql.lockmgr.DbTxnManager;
import org.apache.hadoop.hive.ql.txn.compactor.CompactorThread;
import org.apache.hadoop.hive.ql.txn.compactor.Worker;
import org.datampi.hive.conf.DataMPISettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Hive's standalone metastore runs for transactional tables, run beside an embedded one: the compactor's
 * Initiator and Cleaner (Hive's {@link CompactorTasks}), the transaction housekeeping ({@link #HOUSEKEEPING}), and
 * {@code hive.compactor.worker.threads} Workers (unless HiveServer2 starts its own: {@code
 * hive.metastore.runworker.in=hs2} in a HiveServer2). An embedded metastore starts none of them: without them
 * {@code ALTER TABLE ... COMPACT} only queues its request ({@code ... AND WAIT} waits for ever), no table is compacted
 * on its own, and the locks of a shell killed mid-statement are never released.
 *
 * <p>One per JVM, as Hive's metastore is (its transaction handler's connection pool is static): started by the first
 * statement that runs under DbTxnManager on an embedded metastore ({@link #startFor}; a session may name the manager
 * in its site's files or SET it as it goes), with Hive's own settings deciding which threads; never stopped (the
 * threads end with the JVM, whose last session's metastore they serve). Thread-safe.
 */
public final class EmbeddedTxnServices {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedTxnServices.class);
    /** Hive's metastore decides by election which host runs these; here there is one JVM, always the leader. */
    private static final LeaderElection<String> THIS_JVM = new LeaderElection<>() {
        private String name = "embedded";

        @Override
        public void tryBeLeader(org.apache.hadoop.conf.Configuration conf, String mutex) {
        }

        @Override
        public boolean isLeader() {
            return true;
        }

        @Override
        public void addStateListener(LeaderElection.LeadershipStateListener listener) {
        }

        @Override
        public void setName(String name) {
            this.name = name;
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public void close() {
        }
    };
    /**
     * The standalone metastore's tasks for transactional tables (of its metastore.task.threads.remote, which also
     * lists partition discovery and Iceberg's snapshot expiry): aborting the transactions of clients that stopped
     * heartbeating (metastore.txn.timeout), which releases their locks; removing aborted and committed transactions
     * no longer needed; trimming the compaction history; releasing a materialized view's rebuild lock left by a
     * client that died.
     */
    private static final List<Class<? extends MetastoreTaskThread>> HOUSEKEEPING = List.of(
            AcidHouseKeeperService.class, AcidTxnCleanerService.class, CompactionHouseKeeperService.class,
            MaterializationsRebuildLockCleanerTask.class);
    private static boolean started;

    private EmbeddedTxnServices() {
    }

    /**
     * Starts the services once per JVM when CONF runs statements under DbTxnManager on an embedded metastore
     * ({@code hive.metastore.uris} empty); else does nothing. IN_HIVESERVER2: whether this JVM is a HiveServer2.
     */
    public static synchronized void startFor(HiveConf conf, boolean inHiveServer2) {
        requireNonNull(conf, "conf is null");
        if (started || !DbTxnManager.class.getName().equals(HiveConf.getVar(conf, HiveConf.ConfVars.HIVE_TXN_MANAGER))
                || !MetastoreConf.getVar(conf, MetastoreConf.ConfVars.THRIFT_URIS).isBlank()) {
            return;
        }
        started = true;
        HiveConf services = new HiveConf(conf);
        // The compactor's own queries (an insert-only table's compaction, the statistics it gathers after one) run
        // in the paper's shape: Hive runs them on its own sessions' configurations (DriverUtils.runOnDriver), where
        // the DAG shape's bend of the engine name has no query copy to work on.
        services.set(DataMPISettings.PLAN, DataMPISettings.PlanShape.MAPREDUCE.name().toLowerCase(Locale.ROOT));
        List<String> running = new ArrayList<>();
        try {
            ScheduledExecutorService housekeeping = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "embedded-metastore-housekeeping");
                thread.setDaemon(true);
                return thread;
            });
            for (Class<? extends MetastoreTaskThread> type : HOUSEKEEPING) {
                MetastoreTaskThread task = type.getDeclaredConstructor().newInstance();
                task.setConf(services);
                task.enforceMutex(THIS_JVM.enforceMutex());
                long every = task.runFrequency(TimeUnit.MILLISECONDS);
                housekeeping.scheduleAtFixedRate(task, every, every, TimeUnit.MILLISECONDS);
                running.add(type.getSimpleName());
            }
            new CompactorTasks(services, false).takeLeadership(THIS_JVM);
            running.add("compactor initiator and cleaner");
            // HiveServer2 starts its own Workers when hive.metastore.runworker.in is hs2 (Hive's default).
            boolean serverStartsWorkers = inHiveServer2 && "hs2".equals(
                    MetastoreConf.getVar(services, MetastoreConf.ConfVars.HIVE_METASTORE_RUNWORKER_IN));
            int workers = serverStartsWorkers ? 0
                    : MetastoreConf.getIntVar(services, MetastoreConf.ConfVars.COMPACTOR_WORKER_THREADS);
            for (int i = 0; i < workers; i++) {
                CompactorThread.initializeAndStartThread(new Worker(), services);
            }
            running.add(workers + " compactor workers");
        } catch (Exception e) {
            // Transactional statements still run; what did not start does not.
            LOG.error("Cannot start all of the embedded metastore's transaction services (started: {})", running, e);
            return;
        }
        LOG.info("Started the embedded metastore's transaction services: {}; the compactor's queries on {}", running,
                HiveConf.getVar(services, HiveConf.ConfVars.HIVE_EXECUTION_ENGINE));
    }
}
