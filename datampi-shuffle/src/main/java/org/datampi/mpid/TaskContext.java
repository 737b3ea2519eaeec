package org.datampi.mpid;

import java.util.Map;
import java.util.Optional;

/**
 * The runtime's side of one scheduled task, behind the static {@link MPI_D} calls. The common-mode runtime binds
 * one before it runs a task ({@link TaskProgram#runTask}) and unbinds it afterwards.
 */
public interface TaskContext {
    /** The communicator of this task's side. */
    Comm comm();

    /** MPI_D.Init's configuration, and the partitioner the program made itself, if it did. */
    void init(Map<String, String> conf, Optional<Partitioner> partitioner);

    /** O tasks only. */
    void send(Object key, Object value);

    /** A tasks only: the next pair in key order, or null after the last. */
    Object[] recv();

    void finish();
}
