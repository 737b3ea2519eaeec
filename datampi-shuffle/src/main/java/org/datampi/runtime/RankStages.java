package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntUnaryOperator;

import org.datampi.mpid.PairReceiver;
import org.datampi.mpid.PairSender;
import org.datampi.mpid.StageRuntime;
import org.datampi.mpid.TaskConf;
import org.datampi.shuffle.ShuffleSettings;

/** A rank's {@link StageRuntime}: the job's shuffle ({@link RankShuffle}) as a staged program uses it. */
final class RankStages implements StageRuntime {
    private final int rank;
    private final int size;
    private final String host;
    private final Path localDir;
    private final RankShuffle shuffle;
    private final ShuffleSettings settings;
    /** Rank 0's scheduler; empty elsewhere. */
    private final Optional<StageScheduler> scheduler;

    RankStages(int rank, int size, String host, Path localDir, RankShuffle shuffle, ShuffleSettings settings,
            Optional<StageScheduler> scheduler) {
        this.rank = rank;
        this.size = size;
        this.host = requireNonNull(host, "host is null");
        this.localDir = requireNonNull(localDir, "localDir is null");
        this.shuffle = requireNonNull(shuffle, "shuffle is null");
        this.settings = requireNonNull(settings, "settings is null");
        this.scheduler = requireNonNull(scheduler, "scheduler is null");
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public String host() {
        return host;
    }

    @Override
    public Path localDir() {
        return localDir;
    }

    @Override
    public int nextTask(int stage) {
        return shuffle.requestTask(stage, 0);
    }

    @Override
    public void planStage(int stage, List<? extends Collection<String>> taskHosts) {
        requireNonNull(taskHosts, "taskHosts is null");
        scheduler.orElseThrow(() -> new IllegalStateException("Rank " + rank + " cannot plan stage " + stage
                + ": only rank 0 schedules")).planDeferred(stage, taskHosts);
    }

    @Override
    public void taskDone(int stage) {
        shuffle.taskDone(stage);
    }

    @Override
    public PairSender sender(Map<String, String> conf, int firstPartition, int partitions,
            IntUnaryOperator rankOfPartition) {
        return new ShufflePairSender("Rank " + rank + "'s sender to partitions " + firstPartition + "+" + partitions,
                TaskConf.parse(conf), shuffle, settings, firstPartition, partitions, rankOfPartition);
    }

    @Override
    public void endStage(int stage) {
        shuffle.finishSending(stage);
    }

    @Override
    public void awaitStage(int stage) {
        try {
            shuffle.awaitAllData(stage);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for stage " + stage, e);
        }
    }

    @Override
    public boolean stageEnded(int stage) {
        return shuffle.allDataArrived(stage);
    }

    @Override
    public long stageEnds() {
        return shuffle.endMarkersReceived();
    }

    @Override
    public void awaitStageEnds(long seen) {
        try {
            shuffle.awaitEndMarkers(seen);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for a stage to end", e);
        }
    }

    @Override
    public PairReceiver receiver(Map<String, String> conf, int partition) {
        return shuffle.receiver("Rank " + rank + "'s receiver of partition " + partition, TaskConf.parse(conf),
                partition);
    }

    @Override
    public void release(int partition) {
        shuffle.receiveBuffers().release(partition);
    }

    @Override
    public long spilledBytes() {
        return shuffle.receiveBuffers().spilledBytes();
    }
}
