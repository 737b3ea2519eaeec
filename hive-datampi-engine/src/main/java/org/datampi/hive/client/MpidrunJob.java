package org.datampi.hive.client;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.datampi.status.JobProgress;
import org.datampi.status.RankStatus;

/**
 * One stage running on a {@link RankPool}: its progress, the first error it reports, its milestones. Thread-safe:
 * the pool's status channel reports, its output reader ends the job, deadlines and kills come from other threads.
 */
final class MpidrunJob {
    enum State { RUNNING, SUCCEEDED, FAILED, KILLED }

    private final String id;
    private final RankPool pool;
    private final CompletableFuture<State> exit = new CompletableFuture<>();
    private final long submitted = System.nanoTime();
    private volatile JobProgress progress = JobProgress.NONE;
    /** The first error: a rank's report (with its log's last lines), a deadline's, the launcher's; guarded by this. */
    private String firstError;
    /** Whether the first error is a rank's report of a lost peer; guarded by this. */
    private boolean reportedRankLost;
    /** Whether the job failed because a rank was lost rather than by an error of its own; set as it fails. */
    private volatile boolean rankLost;
    private volatile boolean killed;
    /** Whether the job was cancelled ({@link #cancel}): it ends KILLED even if its ranks finish it. */
    private volatile boolean cancelled;
    /** Whether a deadline (start, stage) ended the job. */
    private volatile boolean pastDeadline;
    private volatile long ranksUp;
    private volatile long oPhaseDone;
    private volatile long aPhaseDone;
    private volatile long ended;

    MpidrunJob(String id, RankPool pool) {
        this.id = requireNonNull(id, "id is null");
        this.pool = requireNonNull(pool, "pool is null");
    }

    String id() {
        return id;
    }

    /** Rank 0's report of the job's progress. */
    void progress(JobProgress now) {
        progress = now;
        long time = System.nanoTime();
        ranksUp = ranksUp == 0 ? time : ranksUp;
        if (now.oShare() == 1) {
            oPhaseDone = oPhaseDone == 0 ? time : oPhaseDone;
            aPhaseDone = now.aShare() == 1 ? time : 0;
        }
    }

    /** A rank's report of the failure that ends the job; the first one is the job's error. */
    synchronized void rankFailed(RankStatus.RankFailed failed) {
        if (firstError == null) {
            firstError = failed.report();
            reportedRankLost = failed.rankLost();
        }
    }

    private synchronized void failedWith(String error) {
        if (firstError == null) {
            firstError = error;
        }
    }

    /** Every rank is through the job: it succeeded, unless it was cancelled meanwhile. */
    void succeeded() {
        ended = System.nanoTime();
        if (cancelled) {
            failedWith("datampi: job " + id + " was cancelled; its ranks finished its tasks within the cancel grace "
                    + "and stay up for the next stage");
            exit.complete(State.KILLED);
            return;
        }
        exit.complete(State.SUCCEEDED);
    }

    /**
     * The rank pool ended while this job ran, for REASON; PROCESS_LOST when the group lost a process (killed, crashed,
     * its host's daemon gone) other than by this side's stop.
     */
    void failed(String reason, boolean processLost) {
        ended = System.nanoTime();
        synchronized (this) {
            rankLost = isRankLoss(killed || cancelled || pastDeadline, reportedRankLost, processLost);
        }
        if (killed || cancelled) {
            failedWith(killed ? "datampi: job " + id + " was killed (Ctrl-C, a kill request or the session's end); "
                    + "its ranks were stopped" : "datampi: job " + id + " was cancelled, and ended meanwhile: " + reason);
            exit.complete(State.KILLED);
            return;
        }
        failedWith(reason);
        exit.complete(State.FAILED);
    }

    /**
     * Whether a job that failed lost a rank, which is no fault of the job: a process of the group lost (kill -9, a JVM
     * crash, a host's daemon), whatever its peers reported after it, or a rank's report of a peer it no longer hears
     * (a host down). Not when this side stopped the job (a kill, a deadline), nor for a rank's report of a task's
     * error or a rank that exited by itself (out of heap: the same data would do it again).
     */
    private static boolean isRankLoss(boolean stoppedHere, boolean reportedRankLost, boolean processLost) {
        return !stoppedHere && (reportedRankLost || processLost);
    }

    /** Whether the job failed because a rank was lost ({@link #isRankLoss}): another attempt may succeed. */
    boolean rankLost() {
        return rankLost;
    }

    /** Completes with the job's end state. */
    CompletableFuture<State> exit() {
        return exit;
    }

    /** The share of O tasks done: 0 before the first report, 1 once the job succeeded. */
    float mapProgress() {
        return hasSucceeded() ? 1 : progress == JobProgress.NONE ? 0 : progress.oShare();
    }

    /** The share of A tasks done: 0 before the first report, 1 once the job succeeded. */
    float reduceProgress() {
        return hasSucceeded() ? 1 : progress == JobProgress.NONE ? 0 : progress.aShare();
    }

    private boolean hasSucceeded() {
        return exit.getNow(State.RUNNING) == State.SUCCEEDED;
    }

    /** The last progress the ranks reported ({@link JobProgress#NONE} before the first). */
    JobProgress progress() {
        return progress;
    }

    /** The milestones reached so far. */
    StageTimeline timeline() {
        return new StageTimeline(submitted, ranksUp, oPhaseDone, aPhaseDone, ended);
    }

    /** Where the ranks log. */
    Optional<String> logDir() {
        return pool.logDir();
    }

    /** Which ranks ran on which host. */
    Optional<String> rankHosts() {
        return pool.rankHosts();
    }

    /** What the console says of the job once it ended, with NOTES from its counters. */
    DataMPIJobRunner.JobOutcome outcome(List<String> notes) {
        return new DataMPIJobRunner.JobOutcome(logDir(), rankHosts(), failure(), rankLost(), timeline(), notes);
    }

    /**
     * The first error a rank or the launcher reported, for the user, with the failing rank's log tail when it sent one
     * (its log stays on its host).
     */
    synchronized Optional<String> failure() {
        return Optional.ofNullable(firstError);
    }

    /**
     * Fails the job, and stops the ranks, unless they start its first O task within SECONDS. A group whose launch
     * hangs is otherwise waited for without end: MPI's daemons wait for a host that cannot be reached, and the ranks'
     * own liveness checks start only with the job. HINT (the setting, the hostfile) ends the error.
     */
    void failUnlessStartedWithin(long seconds, String hint) {
        failUnless(seconds, () -> ranksUp != 0, "start", () -> "datampi: the ranks did not start job " + id
                + " within " + seconds + " s (" + hint + ")");
    }

    /**
     * Fails the job, and stops the ranks, unless it ends within SECONDS: a task that hangs (a UDF that never
     * returns, a peer stuck in a way the ranks' liveness checks do not see) would otherwise hold the query forever.
     */
    void failUnlessEndedWithin(long seconds, String hint) {
        failUnless(seconds, () -> false, "end", () -> "datampi: job " + id + " did not end within " + seconds
                + " s (" + hint + "); its ranks were stopped");
    }

    /** Unless the job ends first, or MET holds by then, fails it with ERROR after SECONDS and stops its ranks. */
    private void failUnless(long seconds, BooleanSupplier met, String what, Supplier<String> error) {
        Thread deadline = new Thread(() -> {
            try {
                exit.get(seconds, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                if (!met.getAsBoolean() && !exit.isDone()) {
                    pastDeadline = true;
                    failedWith(error.get());
                    pool.kill(this);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException e) {
                // Ended; nothing to watch.
            }
        }, "datampi-" + what + "-deadline-" + id);
        deadline.setDaemon(true);
        deadline.start();
    }

    /** Stops the job, and with it the ranks that run it. */
    void kill() {
        killed = true;
        pool.kill(this);
    }

    /**
     * Cancels the job, giving it GRACE_SECONDS to end on its ranks before they are stopped ({@link #kill}); returns
     * once the ranks are through it or stopped, so that nothing of it writes after its stage is closed. A job that
     * ends within the grace ends KILLED all the same, and its group stays up for the next stage, another session's
     * included: stopping the ranks mid-job ends the group every session shares, and each of them then pays for a new
     * one (mpirun, the JVMs, MPI_Init).
     */
    void cancel(long graceSeconds) {
        cancelled = true;
        if (graceSeconds > 0) {
            try {
                exit.get(graceSeconds, TimeUnit.SECONDS);
                return;
            } catch (TimeoutException e) {
                // Past the grace: stopped below.
            } catch (ExecutionException e) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (!exit.isDone()) {
            kill();
        }
    }
}
