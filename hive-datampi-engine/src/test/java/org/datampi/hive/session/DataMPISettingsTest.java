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
}
