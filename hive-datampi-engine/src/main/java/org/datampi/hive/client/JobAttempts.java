package org.datampi.hive.client;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

import org.datampi.hive.client.DataMPIJobRunner.JobOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The attempts of one MapReduce-shaped job, driven apart from Hive's status poll, which only reads. The first attempt
 * starts on the submitting thread (Hive's). When an attempt fails because a rank was lost and {@link StageAttempts}
 * allows another, a thread of the job's own removes what the attempt wrote and starts the next; meanwhile Hive sees
 * one job running, as it sees one MapReduce job whatever task attempts YARN ran. {@link #end} completes with the last
 * attempt's end.
 *
 * <p>Thread-safe. The attempts follow one another: an attempt's end (on the thread that ended it: the group's reader,
 * a deadline, a kill) decides the next, whose thread then launches it, so the {@link StageAttempts} is used by one
 * thread at a time. A kill stops the current attempt and any that would follow.
 */
final class JobAttempts {
    /** Starts attempt ATTEMPT_ID of the job on the ranks; a wait for a group gives up when STOPPED holds. */
    @FunctionalInterface
    interface Launcher {
        MpidrunJob launch(String attemptId, BooleanSupplier stopped);
    }

    /** Removes what a failed attempt wrote, so that the next starts from nothing (a retry over it could double rows). */
    @FunctionalInterface
    interface Discard {
        void run() throws Exception;
    }

    private static final Logger LOG = LoggerFactory.getLogger(JobAttempts.class);
    private final String jobId;
    private final StageAttempts attempts;
    private final Launcher launcher;
    private final Discard discard;
    private final ClassLoader loader;
    private final CompletableFuture<MpidrunJob.State> end = new CompletableFuture<>();
    private volatile MpidrunJob current;
    private volatile boolean killed;

    private JobAttempts(String jobId, StageAttempts attempts, Launcher launcher, Discard discard) {
        this.jobId = requireNonNull(jobId, "jobId is null");
        this.attempts = requireNonNull(attempts, "attempts is null");
        this.launcher = requireNonNull(launcher, "launcher is null");
        this.discard = requireNonNull(discard, "discard is null");
        // A retry's discard closes the stage's operators, whose classes may be the session's (ADD JAR).
        this.loader = Thread.currentThread().getContextClassLoader();
    }

    /** Starts the job's first attempt, JOB_ID, on this thread; later ones are job JOB_ID_2 and so on. */
    static JobAttempts start(String jobId, StageAttempts attempts, Launcher launcher, Discard discard) {
        JobAttempts job = new JobAttempts(jobId, attempts, launcher, discard);
        job.launch();
        return job;
    }

    /**
     * Launches the current attempt: its own job id after the first (job_..._2), so that its ranks' directories are
     * never the lost attempt's, which may still be swept on other hosts.
     */
    private void launch() {
        String attemptId = attempts.current() == 1 ? jobId : jobId + "_" + attempts.current();
        MpidrunJob started = launcher.launch(attemptId, () -> killed);
        current = started;
        if (killed) {
            started.kill();
        }
        started.exit().whenComplete((state, error) -> ended(started, state, error));
    }

    /** Decides what follows an attempt's end. */
    private void ended(MpidrunJob attempt, MpidrunJob.State state, Throwable error) {
        endingOnFailure(() -> {
            if (error != null) {
                end.completeExceptionally(error);
            } else if (state == MpidrunJob.State.FAILED && !killed
                    && attempts.retryAfter(attempt.id(), attempt.outcome(List.of()), false)) {
                Thread next = new Thread(() -> endingOnFailure(this::retry), "datampi-attempts-" + jobId);
                next.setDaemon(true);
                next.setContextClassLoader(loader);
                next.start();
            } else {
                end.complete(state);
            }
        });
    }

    /** After a lost attempt: its output removed, the next launched; the lost attempt's failure stands otherwise. */
    private void retry() {
        try {
            discard.run();
        } catch (Exception e) {
            LOG.warn("Cannot remove what the lost attempt of {} wrote; not running it again", jobId, e);
            end.complete(MpidrunJob.State.FAILED);
            return;
        }
        if (killed) {
            end.complete(MpidrunJob.State.KILLED);
            return;
        }
        launch();
    }

    /** Runs STEP; whatever goes wrong in it ends the job, which Hive's poll waits for. */
    private void endingOnFailure(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            end.completeExceptionally(e);
        } catch (Error e) {
            end.completeExceptionally(e);
            throw e;
        }
    }

    /** Completes with the last attempt's end state. */
    CompletableFuture<MpidrunJob.State> end() {
        return end;
    }

    /** The attempt that runs, or the last one. */
    MpidrunJob current() {
        return current;
    }

    /** Stops the current attempt and any that would follow. */
    void kill() {
        killed = true;
        current.kill();
    }
}
