package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import org.datampi.mpid.Comm;
import org.datampi.mpid.TaskConf;
import org.datampi.mpid.TaskContext;
import org.datampi.shuffle.buffer.ReceiveBufferManager;
import org.datampi.shuffle.merge.RunCursor;

/** An A task: reads the k-way merge of the runs its process received for it, in key order. */
final class ATaskContext implements TaskContext {
    private final Comm comm;
    private final RankShuffle shuffle;
    private TaskConf conf;
    private RunCursor pairs;
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
    public void init(Map<String, String> taskConf) {
        conf = TaskConf.parse(taskConf);
        shuffle.receivedKeyOrder().ifPresent(order -> RankShuffle.checkSameOrder(order, conf.keyOrder(),
                "A task " + comm.rank()));
        pairs = shuffle.receiveBuffers().open(comm.rank());
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
        if (finished || !pairs.next()) {
            return null;
        }
        try {
            return new Object[] {
                conf.keySerde().deserialize(pairs.keyBuffer(), pairs.keyOffset(), pairs.keyLength()),
                conf.valueSerde().deserialize(pairs.valueBuffer(), pairs.valueOffset(), pairs.valueLength())};
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot deserialize a pair in A task " + comm.rank(), e);
        }
    }

    /** Frees the task's received data; idempotent, since the runtime also calls it after main returns. */
    @Override
    public void finish() {
        if (!finished) {
            if (pairs != null) {
                pairs.close();
            }
            ReceiveBufferManager buffers = shuffle.receiveBuffers();
            buffers.release(comm.rank());
        }
        finished = true;
    }
}
