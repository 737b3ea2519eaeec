package org.datampi.hive.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.datampi.status.JobProgress;
import org.datampi.status.RankStatus;
import org.datampi.status.StatusSender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rank pool's side of its group's idle limit, and which failures of its job are a lost rank, with groups stood in
 * for by a shell ({@link StandInGroups}).
 */
class RankPoolTest {
    @TempDir
    Path dir;
    /** The pools' idle clock, in nanoseconds: moved by the tests, not by waiting. */
    private final AtomicLong clock = new AtomicLong();

    @Test
    void aPoolIsRetiredBeforeItsRanksWouldEndByThemselves() throws Exception {
        // Ranks that end after 2 idle seconds: the pool takes no job from 1 s on (a tenth before, at least 1 s).
        try (RankPool pool = start("cat", 2)) {
            assertTrue(pool.isIdle(), "a new pool takes jobs");
            clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(999));
            assertTrue(pool.isIdle(), "0.999 s idle");
            clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(1));
            assertFalse(pool.isIdle(), "close to its idle limit the pool takes no job");
            assertTrue(pool.hasEnded(), "and is to be replaced");
            assertTrue(pool.trySubmit("job_1", List.of("--job-id", "job_1")).isEmpty());
        }
    }

    @Test
    void aFinishedJobRestartsTheIdleClock() throws Exception {
        try (RankPool pool = start("cat", 2); StatusSender rankZero = ranks()) {
            clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(700));
            assertTrue(pool.trySubmit("job_1", List.of("--job-id", "job_1")).isPresent());
            rankZero.send(new RankStatus.JobDone("job_1"));
            StandInGroups.awaitTrue(pool::isIdle);
            clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(700));
            assertTrue(pool.isIdle(), "1.4 s after the start but 0.7 s after the job's end the pool takes jobs");
            clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(300));
            assertFalse(pool.isIdle(), "1 s after the job's end it takes none");
        }
    }

    @Test
    void aPoolThatRunsAJobIsNeitherIdleNorRetired() throws Exception {
        try (RankPool pool = start("cat", 2)) {
            assertTrue(pool.trySubmit("job_1", List.of("--job-id", "job_1")).isPresent());
            clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(2_100));
            assertFalse(pool.isIdle());
            assertFalse(pool.hasEnded(), "a running job keeps its pool");
        }
    }

    /** What the ranks report reaches the job: where they run and log, progress, the end of only its own job. */
    @Test
    void theRanksRecordsReachTheirJob() throws Exception {
        try (RankPool pool = start("cat", 60); StatusSender rankZero = ranks()) {
            rankZero.send(new RankStatus.GroupUp(List.of("dmp1", "dmp1", "dmp2"), "/logs/job_9"));
            MpidrunJob job = pool.trySubmit("job_1", List.of("--job-id", "job_1")).orElseThrow();
            rankZero.send(new JobProgress(2, 4, 0, 2, List.of()));
            rankZero.send(new RankStatus.JobDone("job_0"));
            StandInGroups.awaitTrue(() -> job.mapProgress() == 0.5f);
            assertEquals(Optional.of("0-1 on dmp1; 2 on dmp2"), job.rankHosts());
            assertEquals(Optional.of("/logs/job_9"), job.logDir());
            assertFalse(job.exit().isDone(), "another job's end is not this one's");
            rankZero.send(new RankStatus.JobDone("job_1"));
            assertEquals(MpidrunJob.State.SUCCEEDED, job.exit().get(10, TimeUnit.SECONDS));
        }
    }

    /** A rank killed (or crashed) by a signal: mpirun's exit status says so, whatever its peers reported after it. */
    @Test
    void aRankEndedByASignalIsALostRank() throws Exception {
        MpidrunJob job = failedJob(Optional.of(failure(0, "O task 2", "java.io.IOException: peer gone", false)),
                "kill -9 $$");
        assertTrue(job.rankLost());
        assertTrue(job.failure().orElseThrow().startsWith("datampi: job failed on rank 0 (h1), O task 2: "
                + "java.io.IOException: peer gone\nh1:/logs/rank-0.log, last lines:\n| INFO"), job.failure().get());
    }

    @Test
    void aRanksReportOfAPeerItNoLongerHearsIsALostRank() throws Exception {
        assertTrue(failedJob(Optional.of(failure(0, RankStatus.RankFailed.RANK_LOST,
                "org.datampi.runtime.RankLostException: Lost rank 3 on h2: nothing heard for 10 s", true)), "exit 1")
                .rankLost());
    }

    /** The job's own error would come again: a throwing task, a rank out of heap (it exits by itself). */
    @Test
    void aTasksErrorOrARankOutOfHeapIsNot() throws Exception {
        assertFalse(failedJob(Optional.of(failure(1, "O task 0", "java.lang.RuntimeException: bad row", false)),
                "exit 1").rankLost());
        MpidrunJob outOfHeap = failedJob(Optional.empty(),
                "echo 'Terminating due to java.lang.OutOfMemoryError: Java heap space'; exit 3");
        assertFalse(outOfHeap.rankLost());
        assertEquals(Optional.of("mpidrun exited with code 3: Terminating due to java.lang.OutOfMemoryError: Java heap "
                + "space"), outOfHeap.failure(), "without a rank's report, what mpidrun printed last");
    }

    /** A stop of this side's own (Ctrl-C, a deadline) ends the group by a signal too, and is no lost rank. */
    @Test
    void aJobStoppedHereIsNot() throws Exception {
        try (RankPool pool = start("read job; sleep 60", 60)) {
            MpidrunJob job = pool.trySubmit("job_1", List.of("--job-id", "job_1")).orElseThrow();
            job.kill();
            assertEquals(MpidrunJob.State.KILLED, job.exit().get(30, TimeUnit.SECONDS));
            assertFalse(job.rankLost());
        }
    }

    /**
     * A cancelled job whose ranks finish it within the grace ends KILLED, with nothing of it taken for an answer, and
     * leaves its group up for the next job.
     */
    @Test
    void aCancelledJobThatEndsWithinTheGraceLeavesItsGroupWarm() throws Exception {
        try (RankPool pool = start("cat", 60); StatusSender rankZero = ranks()) {
            MpidrunJob job = pool.trySubmit("job_1", List.of("--job-id", "job_1")).orElseThrow();
            Thread canceller = new Thread(() -> job.cancel(30));
            canceller.start();
            StandInGroups.awaitTrue(() -> canceller.getState() == Thread.State.TIMED_WAITING);
            rankZero.send(new RankStatus.JobDone("job_1"));
            assertEquals(MpidrunJob.State.KILLED, job.exit().get(10, TimeUnit.SECONDS));
            canceller.join(10_000);
            assertFalse(canceller.isAlive(), "the cancel returns once the job has ended");
            assertTrue(job.failure().orElseThrow().contains("was cancelled"), job.failure().get());
            assertFalse(job.rankLost());
            assertTrue(pool.isRunning() && pool.isIdle(), "the group stays up and takes the next job");
            assertTrue(pool.trySubmit("job_2", List.of("--job-id", "job_2")).isPresent());
        }
    }

    /** A kill that comes once its job has ended (a grace or deadline running out just then) spares the next job. */
    @Test
    void aLateKillLeavesTheGroupToTheNextJob() throws Exception {
        try (RankPool pool = start("cat", 60); StatusSender rankZero = ranks()) {
            MpidrunJob first = pool.trySubmit("job_1", List.of("--job-id", "job_1")).orElseThrow();
            rankZero.send(new RankStatus.JobDone("job_1"));
            assertEquals(MpidrunJob.State.SUCCEEDED, first.exit().get(10, TimeUnit.SECONDS));
            MpidrunJob next = pool.trySubmit("job_2", List.of("--job-id", "job_2")).orElseThrow();
            first.kill();
            assertTrue(pool.isRunning(), "the group runs the next job");
            rankZero.send(new RankStatus.JobDone("job_2"));
            assertEquals(MpidrunJob.State.SUCCEEDED, next.exit().get(10, TimeUnit.SECONDS));
        }
    }

    /** Past the grace the ranks are stopped, as a kill would. */
    @Test
    void aCancelledJobPastTheGraceStopsItsGroup() throws Exception {
        try (RankPool pool = start("read job; sleep 60", 60)) {
            MpidrunJob job = pool.trySubmit("job_1", List.of("--job-id", "job_1")).orElseThrow();
            long started = System.nanoTime();
            job.cancel(1);
            assertFalse(pool.isRunning(), "the cancel returns once the ranks are stopped");
            assertTrue(System.nanoTime() - started >= TimeUnit.SECONDS.toNanos(1), "not before the grace");
            assertEquals(MpidrunJob.State.KILLED, job.exit().get(10, TimeUnit.SECONDS));
            assertFalse(job.rankLost());
            assertTrue(pool.hasEnded());
        }
    }

    private static RankStatus.RankFailed failure(int rank, String where, String cause, boolean rankLost) {
        return new RankStatus.RankFailed(rank, "h1", where, cause, rankLost, Optional.of("/logs/rank-" + rank + ".log"),
                List.of("INFO started"));
    }

    /**
     * The job of a group that reads it, hears REPORT from a rank (if any), then runs SCRIPT (which ends the stand-in
     * as the group would end).
     */
    private MpidrunJob failedJob(Optional<RankStatus.RankFailed> report, String script) throws Exception {
        Path go = dir.resolve("go");
        try (RankPool pool = start("read job; until [ -e " + go + " ]; do sleep 0.05; done; " + script, 60)) {
            MpidrunJob job = pool.trySubmit("job_1", List.of("--job-id", "job_1")).orElseThrow();
            try (StatusSender rank = ranks()) {
                report.ifPresent(rank::send);
            }
            Files.createFile(go);
            assertEquals(MpidrunJob.State.FAILED, job.exit().get(30, TimeUnit.SECONDS), "the job failed");
            return job;
        }
    }

    private RankPool start(String script, int idleSeconds) throws Exception {
        Files.deleteIfExists(dir.resolve("go"));
        return groups().start(script, idleSeconds);
    }

    private StatusSender ranks() throws Exception {
        return groups().ranks();
    }

    private StandInGroups groups() {
        return new StandInGroups(dir, clock::get);
    }
}
