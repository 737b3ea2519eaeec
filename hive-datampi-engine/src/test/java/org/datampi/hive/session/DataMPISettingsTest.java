package org.datampi.hive.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.hadoop.conf.Configuration;
import org.datampi.hive.session.DataMPISettings.PlanShape;
import org.junit.jupiter.api.Test;

class DataMPISettingsTest {
    @Test
    void theDagShapeIsTheDefaultAndEitherShapeCanBeChosen() {
        Configuration conf = new Configuration(false);
        assertEquals(PlanShape.DAG, PlanShape.of(conf), "unset: the faster shape");
        conf.set(DataMPISettings.PLAN, " MapReduce ");
        assertEquals(PlanShape.MAPREDUCE, PlanShape.of(conf));
        conf.set(DataMPISettings.PLAN, "dag");
        assertEquals(PlanShape.DAG, PlanShape.of(conf));
    }

    @Test
    void anUnknownShapeIsRefusedNamingTheKeyAndTheAcceptedValues() {
        Configuration conf = new Configuration(false);
        conf.set(DataMPISettings.PLAN, "graph");
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> PlanShape.of(conf));
        assertEquals("Invalid value 'graph' for hive.datampi.plan: expected dag or mapreduce", error.getMessage());
    }

    @Test
    void aStageIsRetriedOnceByDefaultAndRetriesAreANumberOfAtLeastZero() {
        Configuration conf = new Configuration(false);
        assertEquals(1, DataMPISettings.stageRetries(conf));
        conf.set(DataMPISettings.STAGE_RETRIES, " 0 ");
        assertEquals(0, DataMPISettings.stageRetries(conf));
        conf.set(DataMPISettings.STAGE_RETRIES, "3");
        assertEquals(3, DataMPISettings.stageRetries(conf));
        for (String wrong : new String[] {"-1", "once", "1.5"}) {
            conf.set(DataMPISettings.STAGE_RETRIES, wrong);
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                    () -> DataMPISettings.stageRetries(conf));
            assertEquals("Invalid value '" + wrong + "' for hive.datampi.stage.retries: expected 0 (no retry) or a "
                    + "positive number of retries", error.getMessage());
        }
    }

    @Test
    void twoGroupsOfRanksByDefaultAndAtLeastOne() {
        Configuration conf = new Configuration(false);
        assertEquals(2, DataMPISettings.groupsMax(conf));
        conf.set(DataMPISettings.GROUPS_MAX, "1");
        assertEquals(1, DataMPISettings.groupsMax(conf));
        conf.set(DataMPISettings.GROUPS_MAX, "0");
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> DataMPISettings.groupsMax(conf));
        assertEquals("Invalid value '0' for hive.datampi.groups.max: expected a positive number of groups",
                error.getMessage());
    }
}
