package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.datampi.mpid.PairReceiver;
import org.datampi.mpid.TaskConf;
import org.datampi.shuffle.merge.RunCursor;

/**
 * A partition's received pairs, deserialized from the k-way merge of its runs: what an A task's {@code MPI_D.Recv} and
 * a staged job's receivers share.
 */
final class ShufflePairReceiver implements PairReceiver {
    private final String task;
    private final TaskConf conf;
    private final RunCursor pairs;
    private boolean closed;

    ShufflePairReceiver(String task, TaskConf conf, RunCursor pairs) {
        this.task = requireNonNull(task, "task is null");
        this.conf = requireNonNull(conf, "conf is null");
        this.pairs = requireNonNull(pairs, "pairs is null");
    }

    @Override
    public Object[] next() {
        if (closed || !pairs.next()) {
            return null;
        }
        try {
            return new Object[] {
                conf.keySerde().deserialize(pairs.keyBuffer(), pairs.keyOffset(), pairs.keyLength()),
                conf.valueSerde().deserialize(pairs.valueBuffer(), pairs.valueOffset(), pairs.valueLength())};
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot deserialize a pair in " + task, e);
        }
    }

    @Override
    public void close() {
        if (!closed) {
            pairs.close();
        }
        closed = true;
    }
}
