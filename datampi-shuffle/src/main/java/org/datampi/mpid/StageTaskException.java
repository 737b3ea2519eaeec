package org.datampi.mpid;

import static java.util.Objects.requireNonNull;

/**
 * A task of a staged program ({@link StageRuntime}) failed: thrown out of runStages, it makes the job's failure line
 * name the task (for example "vertex Map 1, task 3") and its cause, as an O or A task's failure is named.
 */
public final class StageTaskException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String task;

    public StageTaskException(String task, Throwable cause) {
        super(task + " failed: " + cause, requireNonNull(cause, "cause is null"));
        this.task = requireNonNull(task, "task is null");
    }

    /** The task, as the failure line names it. */
    public String task() {
        return task;
    }
}
