package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import org.datampi.mpid.Comm;
import org.datampi.mpid.KeyValueSerde;
import org.datampi.mpid.TaskConf;
import org.datampi.mpid.TaskContext;
import org.datampi.shuffle.ShuffleSettings;
import org.datampi.shuffle.buffer.SendPartitionList;
import org.datampi.shuffle.engine.BlockEncoder;

/**
 * An O task: serializes each sent pair once into the send partition its partitioner picks; full partitions are
 * sorted, encoded and queued for the A task's process while the task goes on computing.
 */
final class OTaskContext implements TaskContext {
    private final Comm comm;
    private final int aTasks;
    private final RankShuffle shuffle;
    private final ShuffleSettings settings;
    private TaskConf conf;
    private SendPartitionList partitions;
    private boolean finished;
    private long pairsSent;

    OTaskContext(Comm comm, int aTasks, RankShuffle shuffle, ShuffleSettings settings) {
        this.comm = requireNonNull(comm, "comm is null");
        this.aTasks = aTasks;
        this.shuffle = requireNonNull(shuffle, "shuffle is null");
        this.settings = requireNonNull(settings, "settings is null");
    }

    @Override
    public Comm comm() {
        return comm;
    }

    @Override
    public void init(Map<String, String> taskConf) {
        conf = TaskConf.parse(taskConf);
        if (aTasks == 0) {
            return;
        }
        shuffle.announceKeyOrder(conf.keyOrder());
        BlockEncoder encoder = new BlockEncoder(settings.codec(), conf.comparator(), conf.blockCombiner(),
                shuffle.pool());
        partitions = new SendPartitionList(aTasks, settings.blockSize(),
                (partition, block) -> shuffle.sendBlock(partition, encoder.encode(partition, block)));
    }

    @Override
    public void send(Object key, Object value) {
        if (conf == null) {
            throw new IllegalStateException("MPI_D.Send before MPI_D.Init in O task " + comm.rank());
        }
        if (partitions == null) {
            throw new IllegalStateException("MPI_D.Send in a job without A tasks (-A 0)");
        }
        KeyValueSerde keys = conf.keySerde();
        KeyValueSerde values = conf.valueSerde();
        try {
            keys.serialize(key);
            values.serialize(value);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot serialize a pair in O task " + comm.rank(), e);
        }
        int partition = conf.partitioner().getPartition(key, value, aTasks);
        if (partition < 0 || partition >= aTasks) {
            throw new IllegalStateException("Partitioner " + conf.partitioner().getClass().getName()
                    + " returned partition " + partition + " for " + aTasks + " A tasks");
        }
        partitions.add(partition, keys.bytes(), 0, keys.length(), values.bytes(), 0, values.length());
        pairsSent++;
    }

    @Override
    public Object[] recv() {
        throw new IllegalStateException("MPI_D.Recv is for A tasks");
    }

    /** Sends what the partitions still hold; idempotent, since the runtime also calls it after main returns. */
    @Override
    public void finish() {
        if (!finished && partitions != null) {
            partitions.flushAll();
        }
        finished = true;
    }

    long pairsSent() {
        return pairsSent;
    }
}
