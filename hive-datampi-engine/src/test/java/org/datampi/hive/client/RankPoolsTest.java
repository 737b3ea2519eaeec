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

import org.datampi.status.RankStatus;
import org.datampi.status.StatusSender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stages of several sessions waiting for this JVM's one group of ranks (hive.datampi.groups.max=1): they get it in
 * the order they came, each told how many wait ahead of it, and a stage stopped while it waits leaves the queue to the
 * next. The group is stood in for by a shell ({@link StandInGroups}) that takes jobs until its input closes.
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

    /**
     * The group that finishes its job hands it on at once: the waiting stage's own wake-up is a minute away, and it
     * has the group within seconds.
     */
    @Test
    void aGroupThatFinishesItsJobWakesTheNextStage() throws Exception {
        MpidrunJob running = submit("job_0", ahead -> { }, () -> false);
        AtomicInteger told = new AtomicInteger(-1);
        Future<MpidrunJob> next = sessions.submit(() -> RankPools.submit(launch, true, 1, "job_1",
                List.of("--job-id", "job_1"), told::set, () -> false, TIMEOUT_SECONDS, 60_000));
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
                List.of("--job-id", "job_1"), ahead -> { }, () -> false, TIMEOUT_SECONDS));
        MpidrunJob job = own.get(20, TimeUnit.SECONDS);
        assertEquals("job_1", job.id(), "the stage gets ranks of its own");
        // Ranks of its own end once given their one job (their input closed): the stand-in ends without a report.
        assertEquals(MpidrunJob.State.FAILED, job.exit().get(20, TimeUnit.SECONDS));
    }

    private MpidrunJob submit(String jobId, IntConsumer onWait, BooleanSupplier stopped) {
        return RankPools.submit(launch, true, 1, jobId, List.of("--job-id", jobId), onWait, stopped,
                TIMEOUT_SECONDS);
    }
}
