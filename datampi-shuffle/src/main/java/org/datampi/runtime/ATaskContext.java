package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;

import org.datampi.mpid.Comm;
import org.datampi.mpid.Partitioner;
import org.datampi.mpid.TaskConf;
import org.datampi.mpid.TaskContext;

/** An A task: reads the k-way merge of the runs its process received for it, in key order. */
final class ATaskContext implements TaskContext {
    private final Comm comm;
    private final RankShuffle shuffle;
    private ShufflePairReceiver pairs;
    private boolean finished;

    ATaskContext(Comm comm, RankShuffle shuffle) {
        this.comm = requireNonNull(comm, "comm is null");
        this.shuffle = requireNonNull(shuffle, "shuffle is null");
    }

    @Override
    public Comm comm() {
        return comm;
    }

    @Override
    public void init(Map<String, String> taskConf, Optional<Partitioner> partitioner) {
        pairs = shuffle.receiver("A task " + comm.rank(), TaskConf.parse(taskConf, partitioner), comm.rank());
    }

    @Override
    public void send(Object key, Object value) {
        throw new IllegalStateException("MPI_D.Send is for O tasks");
    }

    @Override
    public Object[] recv() {
        if (pairs == null) {
            throw new IllegalStateException("MPI_D.Recv before MPI_D.Init in A task " + comm.rank());
        }
        return finished ? null : pairs.next();
    }

    /** Frees the task's received data; idempotent, since the runtime also calls it after main returns. */
    @Override
    public void finish() {
        if (!finished) {
            if (pairs != null) {
                pairs.close();
            }
            shuffle.receiveBuffers().release(comm.rank());
        }
        finished = true;
    }
}
