package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.IntUnaryOperator;

import org.datampi.mpid.KeyValueSerde;
import org.datampi.mpid.PairSender;
import org.datampi.mpid.TaskConf;
import org.datampi.shuffle.ShuffleSettings;
import org.datampi.shuffle.buffer.SendPartitionList;
import org.datampi.shuffle.engine.BlockEncoder;

/**
 * A task's sends: each pair serialized once into the send partition it goes to; a full partition is sorted,
 * encoded (as partition {@code firstPartition + p} of the job) and queued for its rank while the task goes on. What an
 * O task's {@code MPI_D.Send} and a staged job's senders share.
 */
final class ShufflePairSender implements PairSender {
    private final String task;
    private final TaskConf conf;
    private final int partitions;
    private final SendPartitionList blocks;
    private boolean flushed;
    private long bytes;

    /**
     * @param task names the task in errors
     * @param rankOfPartition the rank that receives partition p (0-based)
     */
    ShufflePairSender(String task, TaskConf conf, RankShuffle shuffle, ShuffleSettings settings, int firstPartition,
            int partitions, IntUnaryOperator rankOfPartition) {
        this.task = requireNonNull(task, "task is null");
        this.conf = requireNonNull(conf, "conf is null");
        this.partitions = partitions;
        requireNonNull(rankOfPartition, "rankOfPartition is null");
        shuffle.announceKeyOrder(conf.keyOrder());
        BlockEncoder encoder = new BlockEncoder(settings.codec(), conf.comparator(), conf.blockCombiner(),
                shuffle.pool());
        this.blocks = new SendPartitionList(partitions, settings.blockSize(), shuffle.memory(), (partition, block) ->
                shuffle.sendBlock(rankOfPartition.applyAsInt(partition), encoder.encode(firstPartition + partition,
                        block)));
    }

    @Override
    public void send(int partition, Object key, Object value) {
        if (partition < 0 || partition >= partitions) {
            throw new IllegalArgumentException(task + " sent a pair to partition " + partition + " of " + partitions);
        }
        if (flushed) {
            throw new IllegalStateException(task + " sent a pair after its last flush");
        }
        KeyValueSerde keys = conf.keySerde();
        KeyValueSerde values = conf.valueSerde();
        try {
            keys.serialize(key);
            values.serialize(value);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot serialize a pair in " + task, e);
        }
        blocks.add(partition, keys.bytes(), 0, keys.length(), values.bytes(), 0, values.length());
        bytes += keys.length() + values.length();
    }

    @Override
    public void flush() {
        if (!flushed) {
            blocks.flushAll();
        }
        flushed = true;
    }

    @Override
    public long bytes() {
        return bytes;
    }
}
