package org.datampi.status;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class JobProgressTest {
    @Test
    void aCommonModeJobsLineSaysTheSharesDone() {
        JobProgress progress = new JobProgress(3, 4, 1, 2, List.of());
        assertEquals("datampi: O tasks 3/4 done, A tasks 1/2 done (66%)", progress.line());
        assertEquals(0.75f, progress.oShare());
        assertEquals(0.5f, progress.aShare());
    }

    @Test
    void aStagedJobsLineCarriesEachStage() {
        JobProgress progress = new JobProgress(4, 5, 0, 3, List.of(new JobProgress.Stage(3, 1, 4),
                new JobProgress.Stage(1, 0, 1), new JobProgress.Stage(0, 0, 3)));
        assertEquals("datampi: O tasks 4/5 done, A tasks 0/3 done (50%); stages 3(+1)/4 1/1 0/3", progress.line());
    }

    @Test
    void noTasksIsAllDone() {
        assertEquals(1f, new JobProgress(0, 0, 0, 0, List.of()).aShare());
    }
}
