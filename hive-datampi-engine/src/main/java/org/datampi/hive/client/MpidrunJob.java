package org.datampi.hive.client;

import static java.util.Objects.requireNonNull;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running mpidrun process: follows its progress lines, keeps the first error it reports, and can be killed.
 */
final class MpidrunJob {
    private static final Logger LOG = LoggerFactory.getLogger(MpidrunJob.class);
    private static final Pattern PROGRESS =
            Pattern.compile("datampi: O tasks (\\d+)/(\\d+) done, A tasks (\\d+)/(\\d+) done");
    private static final Pattern LOG_DIR = Pattern.compile("^mpidrun: job \\S+: .*; logs in (.+)$");
    private static final int TAIL_LINES = 30;

    enum State { RUNNING, SUCCEEDED, FAILED, KILLED }

    private final Process process;
    private final Deque<String> tail = new ArrayDeque<>();
    private final CompletableFuture<State> exit = new CompletableFuture<>();
    private volatile float mapProgress;
    private volatile float reduceProgress;
    private volatile String firstError;
    private volatile String logDir;
    private volatile boolean killed;
    private final long launched = System.nanoTime();
    private volatile long ranksUp;
    private volatile long oPhaseDone;
    private volatile long aPhaseDone;
    private volatile long exited;

    private MpidrunJob(Process process) {
        this.process = requireNonNull(process, "process is null");
    }

    static MpidrunJob start(List<String> command) {
        LOG.info("Launching {}", String.join(" ", command));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            MpidrunJob job = new MpidrunJob(process);
            Thread follower = new Thread(job::follow, "datampi-job-output");
            follower.setDaemon(true);
            follower.start();
            return job;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + command.get(0), e);
        }
    }

    private void follow() {
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                observe(line);
            }
            int code = process.waitFor();
            exited = System.nanoTime();
            if (killed) {
                exit.complete(State.KILLED);
            } else if (code == 0) {
                mapProgress = 1;
                reduceProgress = 1;
                exit.complete(State.SUCCEEDED);
            } else {
                if (firstError == null) {
                    firstError = "mpidrun exited with code " + code + ": " + String.join(" | ", tail());
                }
                exit.complete(State.FAILED);
            }
        } catch (IOException | InterruptedException e) {
            firstError = "Lost the mpidrun process: " + e;
            exit.complete(State.FAILED);
        }
    }

    private void observe(String line) {
        LOG.info("mpidrun: {}", line);
        synchronized (tail) {
            tail.addLast(line);
            if (tail.size() > TAIL_LINES) {
                tail.removeFirst();
            }
        }
        Matcher progress = PROGRESS.matcher(line);
        Matcher logs = LOG_DIR.matcher(line);
        if (logs.find()) {
            logDir = logs.group(1);
        } else if (progress.find()) {
            mapProgress = ratio(progress.group(1), progress.group(2));
            reduceProgress = ratio(progress.group(3), progress.group(4));
            long now = System.nanoTime();
            ranksUp = ranksUp == 0 ? now : ranksUp;
            if (mapProgress == 1) {
                oPhaseDone = oPhaseDone == 0 ? now : oPhaseDone;
                aPhaseDone = reduceProgress == 1 ? now : 0;
            }
        } else if (firstError == null && (line.startsWith("datampi: ")
                || line.startsWith("mpidrun: ") && !line.startsWith("mpidrun: job job_"))) {
            firstError = line;
        }
    }

    private static float ratio(String done, String total) {
        int all = Integer.parseInt(total);
        return all == 0 ? 1 : (float) Integer.parseInt(done) / all;
    }

    private List<String> tail() {
        synchronized (tail) {
            return List.copyOf(tail);
        }
    }

    /** Completes with the job's end state once mpidrun has exited. */
    CompletableFuture<State> exit() {
        return exit;
    }

    float mapProgress() {
        return mapProgress;
    }

    float reduceProgress() {
        return reduceProgress;
    }

    /** The milestones reached so far. */
    StageTimeline timeline() {
        return new StageTimeline(launched, ranksUp, oPhaseDone, aPhaseDone, exited);
    }

    /** Where the ranks log, once mpidrun has said it. */
    Optional<String> logDir() {
        return Optional.ofNullable(logDir);
    }

    /** The first error a rank or the launcher reported, for the user. */
    Optional<String> failure() {
        return Optional.ofNullable(firstError);
    }

    /** Stops the job: mpidrun forwards the signal to mpirun, which stops every rank. */
    void kill() {
        killed = true;
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
