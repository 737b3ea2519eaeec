package org.datampi.hive.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;

import org.apache.hadoop.hive.common.HiveInterruptUtils;
import org.datampi.status.RankStatus;
import org.datampi.status.StatusSender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stages of several sessions waiting for this JVM's one group of ranks (hive.datampi.groups.max=1): they get it
 * smallest first by Hive's estimate, in the order they came when of one size, each told how many wait ahead of it; a
 * stage passed the most times is next whatever its size; a stage stopped while it waits leaves the queue to the next.
 * The group is stood in for by a shell ({@link StandInGroups}) that takes jobs until its input closes.
 */
class RankPoolsTest {
    private static final long TIMEOUT_SECONDS = 60;

    @TempDir
    Path dir;
    private final ExecutorService sessions = Executors.newCachedThreadPool();
    private StandInGroups groups;
    private GroupLaunch launch;

    @BeforeEach
    void aStandInGroup() throws Exception {
        RankPools.closeWarm();
        groups = new StandInGroups(dir, System::nanoTime);
        launch = groups.launch("cat");
    }

    @AfterEach
    void close() {
        sessions.shutdownNow();
        RankPools.closeWarm();
    }

    @Test
    void waitingStagesGetTheGroupInTheOrderTheyCame() throws Exception {
        MpidrunJob running = submit("job_0", ahead -> { }, () -> false);
        List<Integer> aheads = new ArrayList<>();
        List<Future<MpidrunJob>> waiting = new ArrayList<>();
        for (int session = 1; session <= 3; session++) {
            AtomicInteger told = new AtomicInteger(-1);
            String jobId = "job_" + session;
            waiting.add(sessions.submit(() -> submit(jobId, told::set, () -> false)));
            StandInGroups.awaitTrue(() -> told.get() >= 0);
            aheads.add(told.get());
        }
        assertEquals(List.of(0, 1, 2), aheads, "each stage is told how many wait ahead of it");

        try (StatusSender rankZero = groups.ranks()) {
            String done = running.id();
            for (Future<MpidrunJob> next : waiting) {
                rankZero.send(new RankStatus.JobDone(done));
                MpidrunJob job = next.get(10, TimeUnit.SECONDS);
                for (Future<MpidrunJob> later : waiting.subList(waiting.indexOf(next) + 1, waiting.size())) {
                    assertFalse(later.isDone(), "a stage that came later still waits");
                }
                done = job.id();
            }
            rankZero.send(new RankStatus.JobDone(done));
        }
    }

    /**
     * Smallest first by Hive's estimate: a stage of 10 rows that came after one of a million takes the group before
     * it, and a stage of unknown size (the MapReduce shape, hive.datampi.queue.order=arrival) comes last.
     */
    @Test
    void aSmallerStagePassesLargerOnesThatCameFirst() throws Exception {
        MpidrunJob running = submit("job_0", ahead -> { }, () -> false);
        Future<MpidrunJob> large = waitingStage("job_1", new StageSize(1_000_000), 0);
        Future<MpidrunJob> unknown = waitingStage("job_2", StageSize.UNKNOWN, 1);
        Future<MpidrunJob> small = waitingStage("job_3", new StageSize(10), 0);

        try (StatusSender rankZero = groups.ranks()) {
            String done = running.id();
            for (Future<MpidrunJob> next : List.of(small, large, unknown)) {
                rankZero.send(new RankStatus.JobDone(done));
                done = next.get(10, TimeUnit.SECONDS).id();
            }
            rankZero.send(new RankStatus.JobDone(done));
        }
        assertEquals(List.of("job_3", "job_1", "job_2"), List.of(small.get().id(), large.get().id(),
                unknown.get().id()));
    }

    /**
     * No stage waits for ever behind smaller ones: once {@value RankPools#MOST_PASSES} stages that came after it have
     * passed it, it is next, and a smaller stage that comes then waits behind it. A smaller stage that came before it
     * is no pass.
     */
    @Test
    void aStagePassedTheMostTimesIsNextWhateverItsSize() throws Exception {
        MpidrunJob running = submit("job_0", ahead -> { }, () -> false);
        Future<MpidrunJob> older = waitingStage("job_older", new StageSize(1), 0);
        Future<MpidrunJob> large = waitingStage("job_large", new StageSize(1_000_000), 1);
        try (StatusSender rankZero = groups.ranks()) {
            rankZero.send(new RankStatus.JobDone(running.id()));
            String done = older.get(10, TimeUnit.SECONDS).id();
            for (int pass = 1; pass <= RankPools.MOST_PASSES; pass++) {
                Future<MpidrunJob> small = waitingStage("job_small" + pass, new StageSize(1), 0);
                rankZero.send(new RankStatus.JobDone(done));
                done = small.get(10, TimeUnit.SECONDS).id();
                assertFalse(large.isDone(), "passed " + pass + " times, the large stage still waits");
            }
            Future<MpidrunJob> late = waitingStage("job_late", new StageSize(1), 1);
            rankZero.send(new RankStatus.JobDone(done));
            assertEquals("job_large", large.get(10, TimeUnit.SECONDS).id());
            assertFalse(late.isDone(), "a smaller stage that came later waits behind the stage passed the most times");
            rankZero.send(new RankStatus.JobDone("job_large"));
            assertEquals("job_late", late.get(10, TimeUnit.SECONDS).id());
            rankZero.send(new RankStatus.JobDone("job_late"));
        }
    }

    @Test
    void aStageStoppedWhileItWaitsLeavesItsPlaceToTheNext() throws Exception {
        MpidrunJob running = submit("job_0", ahead -> { }, () -> false);
        AtomicBoolean stopFirst = new AtomicBoolean();
        AtomicInteger firstTold = new AtomicInteger(-1);
        Future<MpidrunJob> first = sessions.submit(() -> submit("job_1", firstTold::set, stopFirst::get));
        StandInGroups.awaitTrue(() -> firstTold.get() == 0);
        AtomicInteger secondTold = new AtomicInteger(-1);
        Future<MpidrunJob> second = sessions.submit(() -> submit("job_2", secondTold::set, () -> false));
        StandInGroups.awaitTrue(() -> secondTold.get() == 1);

        stopFirst.set(true);
        ExecutionException stopped = assertThrows(ExecutionException.class, () -> first.get(10, TimeUnit.SECONDS));
        assertTrue(stopped.getCause().getMessage().contains("job job_1 was stopped while it waited for a free group "
                + "of ranks: all 1 groups of ranks of this JVM are busy"), stopped.getCause().getMessage());
        try (StatusSender rankZero = groups.ranks()) {
            rankZero.send(new RankStatus.JobDone(running.id()));
            assertEquals("job_2", second.get(10, TimeUnit.SECONDS).id(), "the next in the queue gets the group");
            rankZero.send(new RankStatus.JobDone("job_2"));
        }
    }

    /** Ctrl-C (Hive's interrupt callbacks) ends a waiting stage's wait at once, not at its next own wake-up. */
    @Test
    void ctrlCEndsTheWaitAtOnce() throws Exception {
        MpidrunJob running = submit("job_0", ahead -> { }, () -> false);
        AtomicInteger told = new AtomicInteger(-1);
        Future<MpidrunJob> waiting = sessions.submit(() -> RankPools.submit(launch, true, 1, "job_1",
                List.of("--job-id", "job_1"), StageSize.UNKNOWN, told::set, () -> false, TIMEOUT_SECONDS, 60_000));
        StandInGroups.awaitTrue(() -> told.get() == 0);

        HiveInterruptUtils.interrupt();
        ExecutionException stopped = assertThrows(ExecutionException.class,
                () -> waiting.get(10, TimeUnit.SECONDS));
        assertTrue(stopped.getCause().getMessage().contains("job job_1 was stopped while it waited"),
                stopped.getCause().getMessage());
        try (StatusSender rankZero = groups.ranks()) {
            rankZero.send(new RankStatus.JobDone(running.id()));
        }
    }

    /**
     * The group that finishes its job hands it on at once: the waiting stage's own wake-up is a minute away, and it
     * has the group within seconds.
     */
    @Test
    void aGroupThatFinishesItsJobWakesTheNextStage() throws Exception {
        MpidrunJob running = submit("job_0", ahead -> { }, () -> false);
        AtomicInteger told = new AtomicInteger(-1);
        Future<MpidrunJob> next = sessions.submit(() -> RankPools.submit(launch, true, 1, "job_1",
                List.of("--job-id", "job_1"), StageSize.UNKNOWN, told::set, () -> false, TIMEOUT_SECONDS, 60_000));
        StandInGroups.awaitTrue(() -> told.get() == 0);
        try (StatusSender rankZero = groups.ranks()) {
            rankZero.send(new RankStatus.JobDone(running.id()));
            assertEquals("job_1", next.get(10, TimeUnit.SECONDS).id());
            rankZero.send(new RankStatus.JobDone("job_1"));
        }
    }

    /**
     * A stage that may not use the warm group (hive.datampi.reuse.ranks=false) first in the queue: the idle warm group
     * gives way to ranks of its own, rather than hold the queue until its idle limit.
     */
    @Test
    void anIdleWarmGroupGivesWayToAStageThatMayNotUseIt() throws Exception {
        MpidrunJob warm = submit("job_0", ahead -> { }, () -> false);
        try (StatusSender rankZero = groups.ranks()) {
            rankZero.send(new RankStatus.JobDone(warm.id()));
            assertEquals(MpidrunJob.State.SUCCEEDED, warm.exit().get(10, TimeUnit.SECONDS));
        }
        Future<MpidrunJob> own = sessions.submit(() -> RankPools.submit(launch, false, 1, "job_1",
                List.of("--job-id", "job_1"), StageSize.UNKNOWN, ahead -> { }, () -> false, TIMEOUT_SECONDS));
        MpidrunJob job = own.get(20, TimeUnit.SECONDS);
        assertEquals("job_1", job.id(), "the stage gets ranks of its own");
        // Ranks of its own end once given their one job (their input closed): the stand-in ends without a report.
        assertEquals(MpidrunJob.State.FAILED, job.exit().get(20, TimeUnit.SECONDS));
    }

    /** A stage of SIZE submitted on a session's thread, once it waits, told AHEAD stages wait ahead of it. */
    private Future<MpidrunJob> waitingStage(String jobId, StageSize size, int ahead) throws Exception {
        AtomicInteger told = new AtomicInteger(-1);
        Future<MpidrunJob> stage = sessions.submit(() -> submit(jobId, size, told::set, () -> false));
        StandInGroups.awaitTrue(() -> told.get() >= 0);
        assertEquals(ahead, told.get(), jobId + ": stages waiting ahead of it");
        return stage;
    }

    private MpidrunJob submit(String jobId, IntConsumer onWait, BooleanSupplier stopped) {
        return submit(jobId, StageSize.UNKNOWN, onWait, stopped);
    }

    private MpidrunJob submit(String jobId, StageSize size, IntConsumer onWait, BooleanSupplier stopped) {
        return RankPools.submit(launch, true, 1, jobId, List.of("--job-id", jobId), size, onWait, stopped,
                TIMEOUT_SECONDS);
    }
}
