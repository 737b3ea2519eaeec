package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;

import org.datampi.mpid.Comm;
import org.datampi.mpid.Partitioner;
import org.datampi.mpid.TaskConf;
import org.datampi.mpid.TaskContext;
import org.datampi.shuffle.ShuffleSettings;

/**
 * An O task: each sent pair goes to the A task its partitioner picks ({@link ShufflePairSender}, A task a's partition
 * received by the rank that runs A task a).
 */
final class OTaskContext implements TaskContext {
    private final Comm comm;
    private final int aTasks;
    private final RankShuffle shuffle;
    private final ShuffleSettings settings;
    private TaskConf conf;
    private ShufflePairSender sender;

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
    public void init(Map<String, String> taskConf, Optional<Partitioner> partitioner) {
        conf = TaskConf.parse(taskConf, partitioner);
        if (aTasks > 0) {
            sender = new ShufflePairSender("O task " + comm.rank(), conf, shuffle, settings, 0, aTasks,
                    shuffle::ownerOf);
        }
    }

    @Override
    public void send(Object key, Object value) {
        if (conf == null) {
            throw new IllegalStateException("MPI_D.Send before MPI_D.Init in O task " + comm.rank());
        }
        if (sender == null) {
            throw new IllegalStateException("MPI_D.Send in a job without A tasks (-A 0)");
        }
        int partition = conf.partitioner().getPartition(key, value, aTasks);
        if (partition < 0 || partition >= aTasks) {
            throw new IllegalStateException("Partitioner " + conf.partitioner().getClass().getName()
                    + " returned partition " + partition + " for " + aTasks + " A tasks");
        }
        sender.send(partition, key, value);
    }

    @Override
    public Object[] recv() {
        throw new IllegalStateException("MPI_D.Recv is for A tasks");
    }

    /** Sends what the partitions still hold; idempotent, since the runtime also calls it after main returns. */
    @Override
    public void finish() {
        if (sender != null) {
            sender.flush();
        }
    }
}
