package org.datampi.hive.app;

import java.io.ByteArrayInputStream;
import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;

/**
 * The job configuration that Hadoop's JobClient writes into a job's submit directory (job.xml), read through the
 * directory's own file system: on a cluster the submit directory is on HDFS, and no rank can read the Hive host's
 * local disk.
 */
public final class SubmitDirectory {
    private static final String JOB_XML = "job.xml";

    private SubmitDirectory() {
    }

    /** The job's configuration, on top of Hadoop's defaults as {@code new JobConf(path)} gives them. */
    public static JobConf jobConf(Path submitDir) throws IOException {
        Path file = new Path(submitDir, JOB_XML);
        // Configuration reads a Path resource as a local file whatever its scheme; read the bytes through the file
        // system the path names instead.
        byte[] xml;
        try (FSDataInputStream in = file.getFileSystem(new Configuration()).open(file)) {
            xml = in.readAllBytes();
        }
        JobConf job = new JobConf();
        job.addResource(new ByteArrayInputStream(xml), file.toString());
        return job;
    }
}
