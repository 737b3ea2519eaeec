package org.datampi.hive.app;

import java.io.IOException;

/** The failures both programs report alike, so that a user reads the same line whichever plan shape ran. */
final class TaskFailures {
    private TaskFailures() {
    }

    /** A task that read SPLIT (a split, or the files of one) failed with CAUSE: the line names what it read. */
    static IOException onInputSplit(Object split, Throwable cause) {
        return new IOException("Failed on input split " + split + ": " + cause.getMessage(), cause);
    }

    /** A task of job JOB_ID came to a rank that did not set the job up: the runtime's order was broken. */
    static IllegalStateException notSetUp(String jobId) {
        return new IllegalStateException("Job " + jobId + " was not set up on this rank (setUpJob runs first)");
    }
}
