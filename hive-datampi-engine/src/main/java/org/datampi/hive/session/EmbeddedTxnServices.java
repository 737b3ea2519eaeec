package org.datampi.hive.session;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.MaterializationsRebuildLockCleanerTask;
import org.apache.hadoop.hive.metastore.MetaStoreThread;
import org.apache.hadoop.hive.metastore.MetastoreTaskThread;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.apache.hadoop.hive.metastore.leader.CompactorTasks;
import org.apache.hadoop.hive.metastore.leader.LeaderElection;
import org.apache.hadoop.hive.metastore.txn.service.AcidHouseKeeperService;
import org.apache.hadoop.hive.metastore.txn.service.AcidTxnCleanerService;
import org.apache.hadoop.hive.metastore.txn.service.CompactionHouseKeeperService;
import org.apache.hadoop.hive.ql.lockmgr.DbTxnManager;
import org.apache.hadoop.hive.ql.txn.compactor.Worker;
import org.datampi.hive.conf.DataMPISettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Hive's standalone metastore runs for transactional tables, run beside an embedded one: the compactor's
 * Initiator and Cleaner (those Hive's {@link CompactorTasks} choose), the transaction housekeeping ({@link
 * #HOUSEKEEPING}), and {@code hive.compactor.worker.threads} Workers (unless HiveServer2 starts its own: {@code
 * hive.metastore.runworker.in=hs2} in a HiveServer2). An embedded metastore starts none of them: without them {@code
 * ALTER TABLE ... COMPACT} only queues its request ({@code ... AND WAIT} waits for ever), no table is compacted on
 * its own, and the locks of a shell killed mid-statement are never released.
 *
 * <p>At most one running per JVM, serving one metastore: Hive keeps one JDO persistence manager factory per JVM
 * (PersistenceManagerProvider, which closes it when a thread brings another metastore's settings, failing every
 * other thread's statement with "Persistence Manager has been closed") and one transaction handler's connection
 * pool. Started by the first statement that runs under DbTxnManager on an embedded metastore ({@link #startFor}; a
 * session may name the manager in its site's files or SET it as it goes), with Hive's own settings deciding which
 * threads; stopped when the last session on that metastore closes ({@link #stopFor}) or a session on another
 * metastore starts them. Thread-safe: the class's lock guards {@link #running}. Known limit: Hive's compaction
 * heartbeat service is one per JVM, made with the first metastore's settings.
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
    /** How long {@link #stopFor} waits for a thread to end (a Worker finishing a compaction's statement). */
    private static final Duration STOP_WAIT = Duration.ofSeconds(30);
    /** The services running in this JVM, if any. */
    private static EmbeddedTxnServices running;

    /** The metastore served: its JDBC URL (javax.jdo.option.ConnectionURL). */
    private final String metastore;
    private final ScheduledExecutorService housekeeping;
    /** Set to stop the compactor's threads, which test it between their runs (Hive's MetaStoreThread contract). */
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> compactor = new ArrayList<>();

    private EmbeddedTxnServices(String metastore) {
        this.metastore = requireNonNull(metastore, "metastore is null");
        this.housekeeping = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "embedded-metastore-housekeeping");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Starts the services when CONF runs statements under DbTxnManager on an embedded metastore ({@code
     * hive.metastore.uris} empty) and none serve its metastore yet, stopping those that serve another; else does
     * nothing. IN_HIVESERVER2: whether this JVM is a HiveServer2.
     */
    public static synchronized void startFor(HiveConf conf, boolean inHiveServer2) {
        requireNonNull(conf, "conf is null");
        if (!DbTxnManager.class.getName().equals(HiveConf.getVar(conf, HiveConf.ConfVars.HIVE_TXN_MANAGER))
                || !MetastoreConf.getVar(conf, MetastoreConf.ConfVars.THRIFT_URIS).isBlank()) {
            return;
        }
        String metastore = metastoreOf(conf);
        if (running != null && running.metastore.equals(metastore)) {
            return;
        }
        if (running != null) {
            LOG.info("A session on the embedded metastore {} stops the transaction services of {}: a JVM serves one",
                    metastore, running.metastore);
            running.stop();
        }
        // Marked running before it starts: a service that cannot start is logged once, not retried per statement.
        running = new EmbeddedTxnServices(metastore);
        running.start(conf, inHiveServer2);
    }

    /** Stops the services if they serve CONF's metastore: called as the last session on it closes. */
    public static void stopFor(HiveConf conf) {
        requireNonNull(conf, "conf is null");
        EmbeddedTxnServices stopping;
        synchronized (EmbeddedTxnServices.class) {
            if (running == null || !running.metastore.equals(metastoreOf(conf))) {
                return;
            }
            stopping = running;
            running = null;
        }
        // Outside the lock: the other sessions' statements (startFor) need not wait for a compaction to end.
        stopping.stop();
    }

    private static String metastoreOf(HiveConf conf) {
        return MetastoreConf.getVar(conf, MetastoreConf.ConfVars.CONNECT_URL_KEY);
    }

    private void start(HiveConf conf, boolean inHiveServer2) {
        HiveConf services = new HiveConf(conf);
        // The compactor's own queries (an insert-only table's compaction, the statistics it gathers after one) run
        // in the paper's shape: Hive runs them on its own sessions' configurations (DriverUtils.runOnDriver), where
        // the DAG shape's bend of the engine name has no query copy to work on.
        services.set(DataMPISettings.PLAN, DataMPISettings.PlanShape.MAPREDUCE.name().toLowerCase(Locale.ROOT));
        List<String> started = new ArrayList<>();
        try {
            for (Class<? extends MetastoreTaskThread> type : HOUSEKEEPING) {
                MetastoreTaskThread task = type.getDeclaredConstructor().newInstance();
                task.setConf(services);
                task.enforceMutex(THIS_JVM.enforceMutex());
                long every = task.runFrequency(TimeUnit.MILLISECONDS);
                housekeeping.scheduleAtFixedRate(task, every, every, TimeUnit.MILLISECONDS);
                started.add(type.getSimpleName());
            }
            // Hive's choice of the Initiator and the Cleaner (metastore.compactor.initiator.on, ...cleaner.on),
            // started here as CompactorTasks.takeLeadership starts them, but with threads this class can join.
            List<MetaStoreThread> threads = new ArrayList<>(new CompactorTasks(services, false).getCompactorThreads());
            // HiveServer2 starts its own Workers when hive.metastore.runworker.in is hs2 (Hive's default).
            boolean serverStartsWorkers = inHiveServer2 && "hs2".equals(
                    MetastoreConf.getVar(services, MetastoreConf.ConfVars.HIVE_METASTORE_RUNWORKER_IN));
            int workers = serverStartsWorkers ? 0
                    : MetastoreConf.getIntVar(services, MetastoreConf.ConfVars.COMPACTOR_WORKER_THREADS);
            for (int i = 0; i < workers; i++) {
                threads.add(new Worker());
            }
            for (MetaStoreThread thread : threads) {
                thread.setConf(services);
                thread.init(stop);
                thread.enforceMutex(THIS_JVM.enforceMutex());
                thread.start();
                compactor.add((Thread) thread);
                started.add(thread.getClass().getSimpleName());
            }
        } catch (Exception e) {
            // Transactional statements still run; what did not start does not.
            LOG.error("Cannot start all of the embedded metastore's transaction services (started: {})", started, e);
            return;
        }
        LOG.info("Started the embedded metastore's transaction services for {}: {}; the compactor's queries on {}",
                metastore, started, HiveConf.getVar(services, HiveConf.ConfVars.HIVE_EXECUTION_ENGINE));
    }

    /**
     * Stops every thread and waits (up to {@link #STOP_WAIT} each) for it to end, so that none touches the metastore
     * after its last session. The Initiator and the Cleaner are woken from their sleep between runs (minutes) to see
     * the flag. A Worker is left to finish the compaction it runs and sees the flag after it (it sleeps a second
     * between polls): Hive runs a compaction on a thread of its own, which interrupting the Worker would abandon
     * rather than stop. One still busy after the wait is interrupted: Hive retries its compaction.
     */
    private void stop() {
        stop.set(true);
        housekeeping.shutdownNow();
        compactor.stream().filter(thread -> !(thread instanceof Worker)).forEach(Thread::interrupt);
        try {
            if (!housekeeping.awaitTermination(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("The embedded metastore's housekeeping did not end within {}", STOP_WAIT);
            }
            for (Thread thread : compactor) {
                thread.join(STOP_WAIT.toMillis());
                if (thread.isAlive()) {
                    LOG.warn("The compactor thread {} did not end within {}: interrupted", thread.getName(),
                            STOP_WAIT);
                    thread.interrupt();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info("Stopped the embedded metastore's transaction services for {}", metastore);
    }
}
