package org.datampi.hive.client;

import static java.util.Objects.requireNonNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import org.datampi.runtime.RankHosts;
import org.datampi.status.JobProgress;
import org.datampi.status.RankStatus;
import org.datampi.status.StatusReceiver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code mpidrun --serve} process group: ranks that stay up and run the stages given to them one after the
 * other, so that a session pays for mpirun, the rank JVMs and MPI_Init once. It runs one job at a time. What the
 * ranks report comes as records on the group's status channel ({@link StatusReceiver}): where the ranks run and log,
 * then each job's progress and failures, which go to that job, and its end ({@link RankStatus.JobDone}). A failing
 * job ends the whole group (MPI_Abort): the job fails with the first failure a rank reported, else with what mpirun
 * printed before it exited (the console is read for that, and for the log, alone), and the next stage starts a new
 * group.
 */
final class RankPool implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RankPool.class);
    /**
     * How long the launcher may take to end after a rank aborted. mpirun waits for every host's daemon to confirm
     * its ranks are gone; a host whose network is down never does.
     */
    private static final long ABORT_GRACE_SECONDS = 5;
    /**
     * How long, once mpidrun has ended, the records its ranks sent may take to be read: a failing rank sends its
     * report just before it aborts the group.
     */
    private static final long DRAIN_MILLIS = 5000;
    /**
     * What the group said since its last job ended (launch output included, for its first): enough for Open MPI's
     * explanation of a failed launch, some 50 lines.
     */
    private static final int TAIL_LINES = 200;
    /**
     * How long a group waits for its next job before it ends by itself (mpidrun --idle-seconds): a session that
     * forgets its ranks does not hold a cluster's memory for ever.
     */
    static final int IDLE_SECONDS = 600;
    /**
     * mpidrun passes on mpirun's exit status, which is above this when the group lost a process rather than a rank
     * reporting an error (1) or running out of heap (3): 128 plus the signal of a rank killed (9) or crashed (6, 11),
     * as shells report it, or Open MPI's 205 when mpirun lost a host's daemon.
     */
    private static final int LOST_PROCESS_EXIT = 128;

    private final Process process;
    private final StatusReceiver status;
    /**
     * When this side stops handing the group jobs: a tenth before the ranks' own idle limit (at most a minute), so
     * that a job is never given to a group that is ending by itself.
     */
    private final long retireAfterIdleNanos;
    /** The clock of the idle limit: System::nanoTime, a test's own in tests. */
    private final LongSupplier nanoClock;
    /**
     * Told when the group's job is done or the group has ended (its process gone), on the thread that saw it and
     * holding no lock of this pool: stages waiting for a group try again at once rather than at their next poll.
     */
    private final Runnable freed;
    private long idleSince;
    private final OutputStream jobInput;
    private final Deque<String> tail = new ArrayDeque<>();
    private volatile String logDir;
    private volatile String rankHosts;
    private MpidrunJob current;
    private boolean ended;
    /** Whether this side stopped the group ({@link #kill}): then a signal in its exit status is its own. */
    private volatile boolean stopped;
    /** Whether a rank's failure started the abort grace. */
    private final AtomicBoolean abortGraceStarted = new AtomicBoolean();

    /** Opens the group's status channel, then starts mpidrun with the channel's address in its environment. */
    private RankPool(GroupLaunch launch, int idleSeconds, LongSupplier nanoClock, Runnable freed) throws IOException {
        this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
        this.freed = requireNonNull(freed, "freed is null");
        this.idleSince = nanoClock.getAsLong();
        // The ranks report only once started, after this constructor: the channel may name this pool as its sink.
        this.status = StatusReceiver.open(launch.acrossHosts(), this::observe);
        ProcessBuilder builder = new ProcessBuilder(launch.command()).redirectErrorStream(true);
        builder.environment().putAll(status.environment());
        try {
            this.process = builder.start();
        } catch (IOException e) {
            status.close();
            throw e;
        }
        this.retireAfterIdleNanos = TimeUnit.SECONDS.toNanos(idleSeconds) - TimeUnit.SECONDS.toNanos(
                Math.min(60, Math.max(1, idleSeconds / 10)));
        this.jobInput = process.getOutputStream();
    }

    /** Starts mpidrun --serve as LAUNCH says; FREED is told each time the group is free again or has ended. */
    static RankPool start(GroupLaunch launch, int idleSeconds, Runnable freed) {
        return start(launch, idleSeconds, System::nanoTime, freed);
    }

    /** The same, its idle limit measured by NANO_CLOCK. */
    static RankPool start(GroupLaunch launch, int idleSeconds, LongSupplier nanoClock, Runnable freed) {
        LOG.info("Launching {}", String.join(" ", launch.command()));
        try {
            RankPool pool = new RankPool(launch, idleSeconds, nanoClock, freed);
            Thread follower = new Thread(pool::follow, "datampi-rank-pool-output");
            follower.setDaemon(true);
            follower.start();
            return pool;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + launch.command().get(0), e);
        }
    }

    /**
     * Gives the group a job ({@code --job-id ID -O ONUM -A ANUM CLASS ARGS...}); empty when it is running another
     * job or has ended.
     */
    synchronized Optional<MpidrunJob> trySubmit(String jobId, List<String> jobArguments) {
        if (hasEnded() || current != null) {
            return Optional.empty();
        }
        MpidrunJob job = new MpidrunJob(jobId, this);
        try {
            jobInput.write((String.join("\t", jobArguments) + "\n").getBytes(StandardCharsets.UTF_8));
            jobInput.flush();
        } catch (IOException e) {
            LOG.warn("Cannot give job {} to the rank pool", jobId, e);
            return Optional.empty();
        }
        current = job;
        return Optional.of(job);
    }

    /** Whether mpidrun still runs: until then its ranks take a share of the hosts, whether it takes jobs or not. */
    boolean isRunning() {
        return process.isAlive();
    }

    synchronized boolean isIdle() {
        return !hasEnded() && current == null;
    }

    /**
     * Whether the group has ended or is ending (closed, failed, killed, a rank's failure reported): it takes no more
     * jobs.
     */
    synchronized boolean hasEnded() {
        return ended || abortGraceStarted.get() || !process.isAlive()
                || current == null && nanoClock.getAsLong() - idleSince >= retireAfterIdleNanos;
    }

    private void follow() {
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                // Nothing here may stop this thread: it alone drains mpirun's output, without which ranks block.
                LOG.info("mpidrun: {}", line);
                synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > TAIL_LINES) {
                        tail.removeFirst();
                    }
                }
            }
            int exit = process.waitFor();
            if (!status.awaitDrained(DRAIN_MILLIS)) {
                LOG.warn("The ranks' status connections were still open {} ms after mpidrun ended", DRAIN_MILLIS);
            }
            status.close();
            ended(exit == 0 ? "the rank pool ended" : "mpidrun exited with code " + exit + ": "
                    + LauncherOutput.cause(tail()), exit > LOST_PROCESS_EXIT && !stopped);
        } catch (IOException | InterruptedException | RuntimeException e) {
            status.close();
            ended("Lost the mpidrun process: " + e, false);
        }
    }

    /** A record from a rank: called by the status channel's threads, one per sending rank. */
    private void observe(RankStatus record) {
        if (record instanceof RankStatus.GroupUp up) {
            rankHosts = RankHosts.describe(up.hostOfRank());
            logDir = up.logDir();
            LOG.info("Ranks {}; logs in {}", rankHosts, logDir);
            return;
        }
        if (record instanceof RankStatus.RankFailed failed) {
            LOG.info("Rank {} failed: {}", failed.rank(), failed.report());
            // Once: when a host is lost, each of its peers may report the failure.
            if (abortGraceStarted.compareAndSet(false, true)) {
                stopIfStillRunningAfter(ABORT_GRACE_SECONDS);
            }
        }
        MpidrunJob job;
        synchronized (this) {
            job = current;
        }
        if (job == null) {
            return;
        }
        if (record instanceof RankStatus.JobDone done && done.jobId().equals(job.id())) {
            synchronized (this) {
                current = null;
                idleSince = nanoClock.getAsLong();
            }
            synchronized (tail) {
                tail.clear();
            }
            job.succeeded();
            freed.run();
        } else if (record instanceof JobProgress progress) {
            job.progress(progress);
        } else if (record instanceof RankStatus.RankFailed failed) {
            job.rankFailed(failed);
        }
    }

    /**
     * The group ended: its job, if one ran, failed with REASON; PROCESS_LOST when the group lost a process (a rank
     * killed or crashed, a host's daemon gone) other than by this side's stop.
     */
    private void ended(String reason, boolean processLost) {
        MpidrunJob job;
        synchronized (this) {
            ended = true;
            job = current;
            current = null;
        }
        if (job != null) {
            job.failed(reason, processLost);
        }
        freed.run();
    }

    Optional<String> logDir() {
        return Optional.ofNullable(logDir);
    }

    /** Which ranks run on which host, as rank 0 reported it when the group started ("0-1 on dmp1; 2-3 on dmp2"). */
    Optional<String> rankHosts() {
        return Optional.ofNullable(rankHosts);
    }

    private List<String> tail() {
        synchronized (tail) {
            return List.copyOf(tail);
        }
    }

    private void stopIfStillRunningAfter(long seconds) {
        Thread stopper = new Thread(() -> {
            try {
                if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                    LOG.warn("mpidrun is still running {} s after a rank aborted the job; stopping it", seconds);
                    kill();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "datampi-rank-pool-abort");
        stopper.setDaemon(true);
        stopper.start();
    }

    /**
     * Stops every rank now for JOB (a kill, a deadline, a cancel past its grace), unless JOB is no longer the group's:
     * it has ended, and the group may already run another session's job.
     */
    void kill(MpidrunJob job) {
        synchronized (this) {
            if (current != job) {
                return;
            }
            ended = true;
        }
        kill();
    }

    /**
     * Stops every rank now (a killed job): mpidrun forwards the signal to mpirun. Should mpidrun not end within 30 s,
     * or the caller be interrupted meanwhile, its whole process tree is killed, so that no mpirun outlives it.
     */
    void kill() {
        stopped = true;
        process.destroy();
        boolean interrupted = false;
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                killTree();
            }
        } catch (InterruptedException e) {
            interrupted = true;
            killTree();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void killTree() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    /** Lets the ranks finish and end: closing their job input ends the group after its current job. */
    @Override
    public void close() {
        synchronized (this) {
            ended = true;
        }
        try {
            jobInput.close();
        } catch (IOException e) {
            LOG.warn("Cannot close the rank pool's job input; stopping it", e);
            kill();
        }
    }
}
