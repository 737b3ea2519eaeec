package org.datampi.hive.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.datampi.hive.session.DataMPISettings;
import org.junit.jupiter.api.Test;

class JobPlanTest {
    private static Configuration settings(String parallelism, int processes) {
        Configuration conf = new Configuration(false);
        conf.set(DataMPISettings.PARALLELISM, parallelism);
        conf.setInt(DataMPISettings.PROCESSES, processes);
        return conf;
    }

    @Test
    void defaultParallelismRaisesHivesEstimateToOneATaskPerRank() {
        JobPlan plan = JobPlan.of(settings("default", 4), 3, 1, false, false);
        assertEquals(3, plan.oTasks());
        assertEquals(4, plan.aTasks());
        assertEquals(4, plan.slots());
        assertEquals(7, JobPlan.of(settings("default", 4), 3, 7, false, true).aTasks(), "a larger estimate stays");
    }

    @Test
    void aReducerCountHiveFixedIsKept() {
        assertEquals(1, JobPlan.of(settings("default", 4), 5, 1, true, false).aTasks());
        assertEquals(1, JobPlan.of(settings("enhanced", 4), 5, 1, true, false).aTasks());
    }

    @Test
    void mapOnlyStagesHaveNoATasks() {
        assertEquals(0, JobPlan.of(settings("default", 4), 5, 0, false, false).aTasks());
        assertEquals(0, JobPlan.of(settings("enhanced", 4), 5, 0, false, false).aTasks());
    }

    @Test
    void enhancedParallelismGivesAsManyATasksAsOTasksButOneInTheLastStage() {
        assertEquals(5, JobPlan.of(settings("enhanced", 2), 5, 1, false, false).aTasks());
        assertEquals(1, JobPlan.of(settings("enhanced", 2), 5, 3, false, true).aTasks());
    }

    @Test
    void aStageWithoutSplitsStillHasAnOTask() {
        assertEquals(1, JobPlan.of(settings("default", 2), 0, 1, false, false).oTasks());
    }

    @Test
    void badSettingsNameTheKey() {
        IllegalArgumentException parallelism = assertThrows(IllegalArgumentException.class,
                () -> JobPlan.of(settings("fast", 2), 1, 1, false, false));
        assertTrue(parallelism.getMessage().contains(DataMPISettings.PARALLELISM), parallelism.getMessage());
        IllegalArgumentException processes = assertThrows(IllegalArgumentException.class,
                () -> JobPlan.of(settings("default", 0), 1, 1, false, false));
        assertTrue(processes.getMessage().contains(DataMPISettings.PROCESSES), processes.getMessage());
    }
}
