package org.datampi.mpid;

import java.util.Map;

/**
 * The runtime's side of one scheduled task, behind the static {@link MPI_D} calls. The common-mode runtime binds
 * one before it runs a task's main method and unbinds it afterwards.
 */
public interface TaskContext {
    /** The communicator of this task's side. */
    Comm comm();

    void init(Map<String, String> conf);

    /** O tasks only. */
    void send(Object key, Object value);

    /** A tasks only: the next pair in key order, or null after the last. */
    Object[] recv();

    void finish();
}
