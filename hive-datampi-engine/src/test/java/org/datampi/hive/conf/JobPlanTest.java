package org.datampi.hive.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobPlanTest {
    private static Configuration settings(String parallelism, int processes) {
        Configuration conf = new Configuration(false);
        conf.set(DataMPISettings.PARALLELISM, parallelism);
        conf.setInt(DataMPISettings.PROCESSES, processes);
        // These tests are about task counts, on machines of any core count.
        conf.setBoolean(DataMPISettings.OVERSUBSCRIBE, true);
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

    @Test
    void ranksDefaultToTheHostfilesSlotsOrThisMachinesCores(@TempDir Path dir) throws IOException {
        assertEquals(Runtime.getRuntime().availableProcessors(), JobPlan.slots(new Configuration(false)));
        Configuration conf = new Configuration(false);
        conf.set(DataMPISettings.HOSTFILE, hostfile(dir, "# rack 1\nnode1 slots=4\n\nnode2:3\nnode3\n").toString());
        assertEquals(8, JobPlan.slots(conf));
    }

    @Test
    void moreRanksThanTheHostfilesSlotsAreRefusedUnlessOversubscriptionIsAllowed(@TempDir Path dir)
            throws IOException {
        Path hostfile = hostfile(dir, "node1 slots=2\nnode2 slots=2\n");
        Configuration conf = new Configuration(false);
        conf.set(DataMPISettings.HOSTFILE, hostfile.toString());
        conf.setInt(DataMPISettings.PROCESSES, 5);
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> JobPlan.slots(conf));
        assertEquals(DataMPISettings.PROCESSES + "=5 is more than the 4 slots of the hostfile " + hostfile + "; set "
                + DataMPISettings.OVERSUBSCRIBE + "=true to run more ranks than slots", refused.getMessage());
        conf.setBoolean(DataMPISettings.OVERSUBSCRIBE, true);
        assertEquals(5, JobPlan.slots(conf));
        conf.setInt(DataMPISettings.PROCESSES, 3);
        conf.setBoolean(DataMPISettings.OVERSUBSCRIBE, false);
        assertEquals(3, JobPlan.slots(conf), "fewer ranks than slots are fine");
    }

    @Test
    void aBadHostfileLineIsNamed(@TempDir Path dir) throws IOException {
        Path hostfile = hostfile(dir, "node1 slots=2\nnode2 slots=many\n");
        Configuration conf = new Configuration(false);
        conf.set(DataMPISettings.HOSTFILE, hostfile.toString());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> JobPlan.slots(conf));
        assertTrue(bad.getMessage().contains(hostfile + " line 2"), bad.getMessage());
        Files.writeString(hostfile, "# nothing\n");
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> JobPlan.slots(conf));
        assertTrue(empty.getMessage().contains(hostfile + " lists no hosts"), empty.getMessage());
    }

    private static Path hostfile(Path dir, String text) throws IOException {
        return Files.writeString(dir.resolve("hostfile"), text);
    }
}
