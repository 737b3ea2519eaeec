package org.datampi.hive.app;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.security.PrivilegedExceptionAction;
import java.util.concurrent.Callable;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The Hadoop user a rank runs one job's tasks as, so that the job's file systems are made from the job's own
 * configuration. A warm rank runs one job after another in one JVM, and Hadoop caches a file system per scheme,
 * authority and user, made from the configuration of its first use: without a user per job, the first job's
 * configuration (or a bare one: rank 0 reads a DAG's file before it knows the job's) would make every later job's
 * HDFS client, and a session's {@code SET dfs.replication} or {@code dfs.blocksize}, or the cluster's hdfs-site as
 * Hive's client has it, would not reach the files the ranks write. As Tez's TezChild runs a task as a user of its
 * own and closes that user's file systems after it, a rank runs each job as a new user of the rank's own name and
 * credentials, whose default file system is made at once from the job's configuration, and closes its file systems
 * when the job ends on the rank (the program's close).
 */
final class JobUser {
    private final UserGroupInformation user;

    private JobUser(UserGroupInformation user) {
        this.user = requireNonNull(user, "user is null");
    }

    /** A user for a job with configuration {@code job}, its default file system already made from it. */
    static JobUser start(Configuration job) throws IOException {
        UserGroupInformation rank = UserGroupInformation.getCurrentUser();
        UserGroupInformation user = UserGroupInformation.createRemoteUser(rank.getShortUserName());
        user.addCredentials(rank.getCredentials());
        JobUser jobUser = new JobUser(user);
        try {
            jobUser.call(() -> FileSystem.get(job));
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("Could not open the job's default file system " + FileSystem.getDefaultUri(job),
                    e);
        }
        return jobUser;
    }

    /** Runs {@code action} as the job's user; its exceptions come out as they are. */
    <T> T call(Callable<T> action) throws Exception {
        try {
            return user.doAs((PrivilegedExceptionAction<T>) action::call);
        } catch (UndeclaredThrowableException e) {
            // doAs passes IOException, InterruptedException, RuntimeException and Error through, and wraps the rest.
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** Closes the file systems the job's tasks opened; the rank runs no more of the job's tasks. */
    void close() throws IOException {
        FileSystem.closeAllForUGI(user);
    }
}
