package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class JobProgressTest {
    @Test
    void aCommonModeJobsLineReadsBack() {
        JobProgress progress = new JobProgress(3, 4, 1, 2, List.of());
        assertEquals("datampi: O tasks 3/4 done, A tasks 1/2 done (66%)", progress.line());
        assertEquals(Optional.of(progress), JobProgress.parse(progress.line()));
        assertEquals(0.75f, progress.oShare());
        assertEquals(0.5f, progress.aShare());
    }

    @Test
    void aStagedJobsLineCarriesEachStageAndReadsBack() {
        JobProgress progress = new JobProgress(4, 5, 0, 3, List.of(new JobProgress.Stage(3, 1, 4),
                new JobProgress.Stage(1, 0, 1), new JobProgress.Stage(0, 0, 3)));
        assertEquals("datampi: O tasks 4/5 done, A tasks 0/3 done (50%); stages 3(+1)/4 1/1 0/3", progress.line());
        assertEquals(Optional.of(progress), JobProgress.parse(progress.line()));
        // As the launcher forwards it, with whatever it puts before a rank's line.
        assertEquals(Optional.of(progress), JobProgress.parse("[1,0]<stdout>:" + progress.line()));
    }

    @Test
    void otherLinesAreNoProgress() {
        assertEquals(Optional.empty(), JobProgress.parse("datampi: job failed on rank 1 (h1), O task 3: boom"));
        assertEquals(Optional.empty(), JobProgress.parse("datampi: O tasks data-local: 3 of 4"));
    }

    @Test
    void noTasksIsAllDone() {
        assertEquals(1f, new JobProgress(0, 0, 0, 0, List.of()).aShare());
    }

    /** Rank 0's staged scheduler reports each stage, with the tasks it handed out that are running. */
    @Test
    void theStageSchedulerReportsEveryStage() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StageScheduler scheduler = new StageScheduler(new PrintStream(out, true, StandardCharsets.UTF_8),
                List.of("a", "b"));
        scheduler.plan(0, 3, true);
        scheduler.plan(1, 2, false);
        assertEquals(0, scheduler.grant(0, 0, 0));
        assertEquals(1, scheduler.grant(0, 1, 0));
        scheduler.taskDone(0);
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(List.of("datampi: O tasks 0/3 done, A tasks 0/2 done (0%); stages 0/3 0/2",
                "datampi: O tasks 0/3 done, A tasks 0/2 done (0%); stages 0(+1)/3 0/2",
                "datampi: O tasks 0/3 done, A tasks 0/2 done (0%); stages 0(+2)/3 0/2",
                "datampi: O tasks 1/3 done, A tasks 0/2 done (20%); stages 1(+1)/3 0/2"), lines);
        scheduler.taskDone(1);
        assertEquals(Optional.of(new JobProgress(1, 3, 1, 2, List.of(new JobProgress.Stage(1, 1, 3),
                new JobProgress.Stage(1, 0, 2)))), JobProgress.parse(out.toString(StandardCharsets.UTF_8).lines()
                        .reduce((first, second) -> second).orElseThrow()));
    }
}
