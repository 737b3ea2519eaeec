package org.datampi.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class YarnSiteTest {
    /** What bin/cluster-sim writes: the shared NodeManager settings, its own after them, read back as YARN reads them. */
    @Test
    void theFilesBinClusterSimWritesHoldTheSharedSettingsAndItsOwn(@TempDir Path dir) {
        YarnSite.main(new String[] {dir.toString(), "5632", "3", "/state/yarn/local", "/logs/yarn", "/conf:/lib/*",
                "yarn.resourcemanager.hostname=dmp1", "yarn.nodemanager.log-dirs=/elsewhere"});

        Configuration yarn = new Configuration(false);
        yarn.addResource(new org.apache.hadoop.fs.Path(dir.resolve("yarn-site.xml").toUri()));
        assertEquals("5632", yarn.get(YarnConfiguration.NM_PMEM_MB));
        assertEquals("5632", yarn.get(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB), "a container up to a node");
        assertEquals("3", yarn.get(YarnConfiguration.NM_VCORES));
        assertEquals("false", yarn.get(YarnConfiguration.NM_PMEM_CHECK_ENABLED));
        assertEquals("mapreduce_shuffle", yarn.get(YarnConfiguration.NM_AUX_SERVICES));
        assertEquals("/conf:/lib/*", yarn.get(YarnConfiguration.YARN_APPLICATION_CLASSPATH));
        assertEquals("dmp1", yarn.get(YarnConfiguration.RM_HOSTNAME));
        assertEquals("/elsewhere", yarn.get(YarnConfiguration.NM_LOG_DIRS), "the caller's settings come last");

        Configuration scheduler = new Configuration(false);
        scheduler.addResource(new org.apache.hadoop.fs.Path(dir.resolve("capacity-scheduler.xml").toUri()));
        assertEquals("0.5", scheduler.get("yarn.scheduler.capacity.maximum-am-resource-percent"));
    }
}
