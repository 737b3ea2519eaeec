package org.datampi.hive.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.server.jobtracker.JTConfig;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The "datampi" framework as Hadoop's own client finds and uses it, before any job reaches the ranks. */
class DataMPIJobRunnerTest {
    /** mapreduce.framework.name=datampi makes Hadoop's Cluster (under every JobClient) use this runner. */
    @Test
    void hadoopsClientFindsTheRunnerByTheFrameworksName(@TempDir Path dir) throws Exception {
        Configuration conf = conf(dir);
        Cluster cluster = new Cluster(conf);
        try {
            // The staging directory is the runner's own (per user and runner): Hadoop asked this runner.
            assertEquals(new DataMPIJobRunner(conf).getStagingAreaDir(), cluster.getStagingAreaDir().toString());
        } finally {
            cluster.close();
        }
        conf.set(MRConfig.FRAMEWORK_NAME, "local");
        assertNull(new DataMPIClientProtocolProvider().create(conf), "other frameworks are not this runner's");
    }

    /**
     * Every runner of the JVM numbers jobs in one sequence under one runner id, and stages them in one directory per
     * user and runner: Hadoop makes a runner per JobClient, and a session's stages must not collide.
     */
    @Test
    void theJvmsRunnersShareJobNumbersAndStaging(@TempDir Path dir) throws Exception {
        DataMPIJobRunner first = new DataMPIJobRunner(conf(dir));
        DataMPIJobRunner second = new DataMPIJobRunner(conf(dir));
        JobID one = first.getNewJobID();
        JobID two = second.getNewJobID();

        assertEquals(one.getJtIdentifier(), two.getJtIdentifier());
        assertTrue(one.getJtIdentifier().startsWith("datampi"), one.toString());
        assertNotEquals(one.getId(), two.getId());
        assertEquals(first.getStagingAreaDir(), second.getStagingAreaDir());
        String user = UserGroupInformation.getCurrentUser().getShortUserName();
        assertEquals("file:" + dir.resolve("staging") + "/" + user + one.getJtIdentifier().substring("datampi".length())
                + "/.staging", first.getStagingAreaDir());
    }

    /** A job the runner does not hold (released, or another JVM's): no status, no reports, a kill that does nothing. */
    @Test
    void aJobItDoesNotHoldHasNoStatus(@TempDir Path dir) throws Exception {
        DataMPIJobRunner runner = new DataMPIJobRunner(conf(dir));
        JobID unknown = runner.getNewJobID();

        assertNull(runner.getJobStatus(unknown));
        assertNull(runner.getJobCounters(unknown));
        assertEquals(0, runner.getTaskReports(unknown, TaskType.MAP).length);
        runner.killJob(unknown);
        assertTrue(DataMPIJobRunner.release(unknown.toString()).isEmpty());
    }

    private static Configuration conf(Path dir) {
        Configuration conf = new Configuration(false);
        conf.set(MRConfig.FRAMEWORK_NAME, DataMPIJobRunner.FRAMEWORK_NAME);
        conf.set("fs.defaultFS", "file:///");
        conf.set(JTConfig.JT_STAGING_AREA_ROOT, dir.resolve("staging").toString());
        return conf;
    }
}
