package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.datampi.shuffle.ShuffleSettings;
import org.datampi.status.JobProgress;
import org.datampi.status.JobProgress.Stage;
import org.junit.jupiter.api.Test;

class StageSchedulerTest {
    private static final Duration WAIT = Duration.ofSeconds(ShuffleSettings.DEFAULT_LOCALITY_WAIT);

    /** Rank 0's staged scheduler reports each stage, with the tasks it handed out that are running. */
    @Test
    void reportsEveryStageWhenATaskStartsOrEnds() {
        List<JobProgress> reports = new ArrayList<>();
        StageScheduler scheduler = new StageScheduler(reports::add, List.of("a", "b"), WAIT);
        scheduler.plan(0, 3, true);
        scheduler.plan(1, 2, false);
        assertEquals(TaskScheduler.ASK_AGAIN, scheduler.grant(0, 1, 0), "rank 0's set-up is not done (two hosts)");
        scheduler.open();
        assertEquals(0, scheduler.grant(0, 0, 0));
        assertEquals(1, scheduler.grant(0, 1, 0));
        scheduler.taskDone(0);
        scheduler.taskDone(1);
        assertEquals(List.of(
                new JobProgress(0, 3, 0, 2, List.of(new Stage(0, 0, 3), new Stage(0, 0, 2))),
                new JobProgress(0, 3, 0, 2, List.of(new Stage(0, 1, 3), new Stage(0, 0, 2))),
                new JobProgress(0, 3, 0, 2, List.of(new Stage(0, 2, 3), new Stage(0, 0, 2))),
                new JobProgress(1, 3, 0, 2, List.of(new Stage(1, 1, 3), new Stage(0, 0, 2))),
                new JobProgress(1, 3, 1, 2, List.of(new Stage(1, 1, 3), new Stage(1, 0, 2)))), reports);
        assertEquals("datampi: O tasks 1/3 done, A tasks 1/2 done (40%); stages 1(+1)/3 1/2",
                reports.get(reports.size() - 1).line());
    }

    /** On one host there are no places to wait for: a rank that asks before rank 0's set-up ends gets a task. */
    @Test
    void onOneHostTasksAreGrantedAtOnce() {
        StageScheduler scheduler = new StageScheduler(progress -> { }, List.of("vm", "vm.cluster.local"), WAIT);
        scheduler.plan(0, 1, true);
        assertEquals(0, scheduler.grant(0, 1, 0));
    }

    /**
     * A deferred stage (its splits come from what earlier stages found) tells ranks to ask again until rank 0 plans
     * it, counts no tasks meanwhile, and then hands its tasks out by their hosts.
     */
    @Test
    void aDeferredStageIsHandedOutOnceRankZeroPlansIt() {
        List<JobProgress> reports = new ArrayList<>();
        StageScheduler scheduler = new StageScheduler(reports::add, List.of("a", "b"), WAIT);
        scheduler.plan(0, 1, true);
        scheduler.defer(1);
        scheduler.open();
        assertEquals(0, scheduler.grant(0, 0, 0));
        assertEquals(TaskScheduler.ASK_AGAIN, scheduler.grant(1, 1, 0));
        assertEquals(new JobProgress(0, 1, 0, 0, List.of(new Stage(0, 1, 1), new Stage(0, 0, 0))),
                reports.get(reports.size() - 1));
        scheduler.planDeferred(1, List.of(List.of("a"), List.of("b")));
        assertEquals(new JobProgress(0, 3, 0, 0, List.of(new Stage(0, 1, 1), new Stage(0, 0, 2))),
                reports.get(reports.size() - 1));
        assertEquals(1, scheduler.grant(1, 1, 0), "rank 1 on host b gets the task that prefers b");
        assertEquals(0, scheduler.grant(1, 0, 0));
        assertEquals(-1, scheduler.grant(1, 0, 0));
        assertThrows(IllegalStateException.class, () -> scheduler.planDeferred(1, List.of(List.of())),
                "a stage is planned once");
        assertThrows(IllegalStateException.class, () -> scheduler.planDeferred(0, List.of(List.of())),
                "only a deferred stage is planned late");
    }
}
