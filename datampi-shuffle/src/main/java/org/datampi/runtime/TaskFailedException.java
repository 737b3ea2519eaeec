package org.datampi.runtime;

/** A task's main method threw; names the task so that the job's error says where it failed. */
final class TaskFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TaskFailedException(String task, Throwable cause) {
        super(task + " failed: " + cause, cause);
    }
}
