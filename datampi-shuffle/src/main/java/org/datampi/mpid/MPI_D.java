package org.datampi.mpid;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;

/**
 * DataMPI's key-value programming model (common mode), so that DataMPI programs port with little change.
 *
 * <pre>{@code
 * MPI_D.Init(args, MPI_D.Mode.Common, conf);
 * if (MPI_D.COMM_BIPARTITE_O != null) {          // an O task
 *     MPI_D.Send(key, value);                     // to the A task the partitioner picks
 * } else if (MPI_D.COMM_BIPARTITE_A != null) {   // an A task
 *     for (Object[] pair = MPI_D.Recv(); pair != null; pair = MPI_D.Recv()) { ... }   // in key order
 * }
 * MPI_D.Finalize();
 * }</pre>
 *
 * A program's task ({@link TaskProgram#runTask}, or the main method of a program that has only that) runs once per
 * scheduled task (mpidrun's -O and -A counts), in processes that mpidrun started; the runtime binds the task before it
 * runs.
 *
 * <p>The static state here is the paper's API: MPI_D's calls and communicators are static, so the task that a call
 * is for is the one the runtime bound ({@link #bind}); a rank runs one task at a time.
 */
@SuppressWarnings({"checkstyle:MethodName", "checkstyle:TypeName"})
public final class MPI_D {
    public enum Mode { Common }

    /** This task's communicator when it is an O task, else null. Set by {@link #Init}. */
    public static volatile Comm COMM_BIPARTITE_O;
    /** This task's communicator when it is an A task, else null. Set by {@link #Init}. */
    public static volatile Comm COMM_BIPARTITE_A;

    private static volatile TaskContext bound;

    private MPI_D() {
    }

    public static void Init(String[] args, Mode mode, Map<String, String> conf) throws MPI_D_Exception {
        init(mode, conf, Optional.empty());
    }

    /**
     * Init with a partitioner that the program made itself, for one that needs what a class name in CONF cannot carry
     * (the job's configuration, as Hadoop's partitioners do); CONF then names none.
     */
    public static void Init(String[] args, Mode mode, Map<String, String> conf, Partitioner partitioner)
            throws MPI_D_Exception {
        init(mode, conf, Optional.of(requireNonNull(partitioner, "partitioner is null")));
    }

    private static void init(Mode mode, Map<String, String> conf, Optional<Partitioner> partitioner)
            throws MPI_D_Exception {
        TaskContext task = task("Init");
        if (mode != Mode.Common) {
            throw new MPI_D_Exception("Unsupported MPI_D mode " + mode + "; supported: " + Mode.Common);
        }
        try {
            task.init(conf, partitioner);
        } catch (RuntimeException e) {
            throw new MPI_D_Exception("MPI_D.Init failed: " + e.getMessage(), e);
        }
        Comm comm = task.comm();
        COMM_BIPARTITE_O = comm.side() == Comm.Side.O ? comm : null;
        COMM_BIPARTITE_A = comm.side() == Comm.Side.A ? comm : null;
    }

    public static int Comm_rank(Comm comm) throws MPI_D_Exception {
        return checked(comm).rank();
    }

    public static int Comm_size(Comm comm) throws MPI_D_Exception {
        return checked(comm).size();
    }

    /** Sends a pair from an O task to the A task its partitioner picks. */
    public static void Send(Object key, Object value) throws MPI_D_Exception {
        TaskContext task = task("Send");
        if (task.comm().side() != Comm.Side.O) {
            throw new MPI_D_Exception("MPI_D.Send is for O tasks; this is A task " + task.comm().rank());
        }
        task.send(key, value);
    }

    /** The next pair {key, value} of this A task, in comparator order of the keys (so grouped by key); null at the end. */
    public static Object[] Recv() throws MPI_D_Exception {
        TaskContext task = task("Recv");
        if (task.comm().side() != Comm.Side.A) {
            throw new MPI_D_Exception("MPI_D.Recv is for A tasks; this is O task " + task.comm().rank());
        }
        return task.recv();
    }

    public static void Finalize() throws MPI_D_Exception {
        task("Finalize").finish();
        COMM_BIPARTITE_O = null;
        COMM_BIPARTITE_A = null;
    }

    /** Binds the task whose main method is about to run. For the runtime only. */
    public static void bind(TaskContext task) {
        bound = task;
    }

    /** Unbinds the task whose main method returned. For the runtime only. */
    public static void unbind() {
        bound = null;
        COMM_BIPARTITE_O = null;
        COMM_BIPARTITE_A = null;
    }

    private static TaskContext task(String call) throws MPI_D_Exception {
        TaskContext task = bound;
        if (task == null) {
            throw new MPI_D_Exception("MPI_D." + call + " outside a task: run the program with mpidrun");
        }
        return task;
    }

    private static Comm checked(Comm comm) throws MPI_D_Exception {
        if (comm == null) {
            throw new MPI_D_Exception("This task is not in that communicator (it is null)");
        }
        return comm;
    }
}
