package org.datampi.shuffle.engine;

/** The MPI tags of the messages the engine carries between processes. */
public final class MessageTag {
    /** An encoded block of pairs for one A task. */
    public static final int DATA = 1;
    /** A sender's key order, sent before its first block (so that receivers can merge and spill). */
    public static final int KEY_ORDER = 2;
    /** A sender has sent all its blocks of a stage (carrying the stage); follows them on the same channel. */
    public static final int END_OF_DATA = 3;
    /** A process asks rank 0 for a task of a stage (carrying the stage and how many it finished since it last asked). */
    public static final int TASK_REQUEST = 4;
    /** Rank 0's answer: a task id, or -1 when every task of the stage is handed out. */
    public static final int TASK_GRANT = 5;
    /**
     * A task finished (carrying its stage; sent to rank 0, which reports progress): a common mode job's A tasks, every
     * task of a staged job.
     */
    public static final int TASK_DONE = 6;

    /** A rank is alive (carrying its host's name); rank 0 hears from every rank, every rank from rank 0. */
    public static final int HEARTBEAT = 8;
    /** A rank is through the job's shuffle and sends no more heartbeats for it. */
    public static final int SIGNING_OFF = 9;

    /** Between jobs of a serving process group: rank 0 passes the next job's arguments to every rank. */
    public static final int NEXT_JOB = 7;
    /** When a process group starts: each rank tells rank 0 its host's name (before any engine runs). */
    public static final int RANK_HOST = 10;

    private MessageTag() {
    }
}
