package org.datampi.hive.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;

/**
 * A warm rank's jobs each get the file systems of their own configuration, however the process's cache was filled
 * before (a bare configuration, an earlier job's), and lose them when the rank sets up its next job.
 */
class JobUserTest {
    private static Configuration job(String replication) {
        Configuration conf = new Configuration();
        conf.set(FileSystem.FS_DEFAULT_NAME_KEY, "file:///");
        conf.set("dfs.replication", replication);
        return conf;
    }

    @Test
    void aJobsFileSystemsAreMadeFromItsOwnConfiguration() throws Exception {
        FileSystem rankOwn = FileSystem.get(job("3"));
        JobUser first = JobUser.start(job("1"));
        JobUser second = JobUser.start(job("2"));
        try {
            // Code inside a task that asks with a bare configuration (as Hive's and our own do) gets the job's.
            FileSystem firstFs = first.call(() -> FileSystem.get(new Configuration()));
            FileSystem secondFs = second.call(() -> FileSystem.get(new Configuration()));
            assertEquals("1", firstFs.getConf().get("dfs.replication"));
            assertEquals("2", secondFs.getConf().get("dfs.replication"));
            assertNotSame(rankOwn, firstFs, "not the rank's own cached file system");
            assertSame(firstFs, first.call(() -> FileSystem.get(job("7"))), "one per job and scheme, cached");
        } finally {
            first.close();
            second.close();
        }
    }

    @Test
    void closingAJobsUserDropsItsFileSystems() throws Exception {
        JobUser user = JobUser.start(job("1"));
        FileSystem before = user.call(() -> FileSystem.get(new Configuration()));
        user.close();
        assertNotSame(before, user.call(() -> FileSystem.get(new Configuration())), "a new one after close");
        user.close();
    }

    @Test
    void anActionsExceptionComesOutAsItIs() throws Exception {
        JobUser user = JobUser.start(job("1"));
        try {
            assertEquals("a task's", assertThrows(IOException.class, () -> user.call(() -> {
                throw new IOException("a task's");
            })).getMessage());
            Exception checked = new Exception("checked");
            assertSame(checked, assertThrows(Exception.class, () -> user.call(() -> {
                throw checked;
            })), "not wrapped in UndeclaredThrowableException");
        } finally {
            user.close();
        }
    }
}
