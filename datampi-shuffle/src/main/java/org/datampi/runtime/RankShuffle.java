package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.datampi.mpid.KeyOrder;
import org.datampi.mpid.TaskConf;
import org.datampi.shuffle.ShuffleSettings;
import org.datampi.shuffle.buffer.BufferPool;
import org.datampi.shuffle.buffer.ReceiveBufferManager;
import org.datampi.shuffle.buffer.ShuffleMemory;
import org.datampi.shuffle.codec.BlockCodec;
import org.datampi.shuffle.engine.BlockEncoder;
import org.datampi.shuffle.engine.MessageTag;
import org.datampi.shuffle.engine.ReceivedBlock;
import org.datampi.shuffle.engine.ShuffleEngine;
import org.datampi.shuffle.spill.SpillFiles;
import org.datampi.transport.MpiTransport;
import org.datampi.transport.Transport;

/**
 * One process's part of the job's shuffle: the engine, the receive buffers of the A tasks this process runs
 * (A task a runs on rank a mod size, fixed so that its data can flow before it starts), and the small protocol
 * around them: key order announcements, end-of-data markers per stage (a common mode job's O tasks are its one
 * stage that sends), task requests and completions.
 */
final class RankShuffle implements ShuffleEngine.MessageHandler {
    private static final long WAIT_SLICE_MILLIS = 100;
    /** How long a rank told to ask again (rank 0's set-up not done, tasks held for other hosts) waits first. */
    private static final long ASK_AGAIN_MILLIS = 10;

    private final int rank;
    private final int size;
    private final BufferPool pool;
    private final ShuffleMemory memory;
    private final ShuffleEngine engine;
    private final ReceiveBufferManager receiveBuffers;
    private final Liveness liveness;
    private final Optional<? extends TaskScheduler> scheduler;
    private KeyOrder announcedKeyOrder;
    private KeyOrder receivedKeyOrder;
    /** Per stage, how many ranks have sent all their data of it. */
    private final Map<Integer, Integer> endOfDataMarkers = new HashMap<>();
    /** Every end-of-stage marker received so far, of any stage: what a wait for the next one compares against. */
    private long endMarkersReceived;
    private CompletableFuture<Integer> pendingGrant;

    RankShuffle(String jobId, int rank, int size, String host, ShuffleSettings settings, SpillFiles spillFiles,
            Optional<? extends TaskScheduler> scheduler, Consumer<Throwable> onFailure) {
        this(MpiTransport.INSTANCE, jobId, rank, size, host, settings, spillFiles, scheduler, onFailure);
    }

    /** The same over TRANSPORT: MPI's, or a test's in-memory one. */
    RankShuffle(Transport transport, String jobId, int rank, int size, String host, ShuffleSettings settings,
            SpillFiles spillFiles, Optional<? extends TaskScheduler> scheduler, Consumer<Throwable> onFailure) {
        this.rank = rank;
        this.size = size;
        this.scheduler = requireNonNull(scheduler, "scheduler is null");
        BlockCodec codec = settings.codec();
        this.pool = new BufferPool(BlockEncoder.maxWireBytes(codec, settings.blockSize()), 2 * settings.sendQueue() + 4);
        this.memory = ShuffleMemory.of(settings.memoryBudgetBytes());
        this.receiveBuffers = new ReceiveBufferManager(memory, spillFiles, settings.mergeFactor());
        this.engine = new ShuffleEngine(transport, size, pool, settings.sendQueue(), this, onFailure);
        this.liveness = new Liveness(jobId, rank, size, host, engine, Duration.ofSeconds(settings.livenessTimeoutSeconds()),
                onFailure);
    }

    /** Starts the engine and the ranks' heartbeats: from now on a lost rank fails the job. */
    void start() {
        engine.start();
        liveness.start();
    }

    /** This rank is through the job: its watchers stop expecting its heartbeats. Before the engine stops. */
    void signOff() {
        liveness.close();
    }

    BufferPool pool() {
        return pool;
    }

    /** The heap memory of this rank's shuffle, its send blocks and received runs. */
    ShuffleMemory memory() {
        return memory;
    }

    ReceiveBufferManager receiveBuffers() {
        return receiveBuffers;
    }

    ShuffleEngine engine() {
        return engine;
    }

    /** The rank that runs A task aTask and so receives its data. */
    int ownerOf(int aTask) {
        return aTask % size;
    }

    /** Tells every process the key order before this process sends its first block; later O tasks must agree. */
    synchronized void announceKeyOrder(KeyOrder keyOrder) {
        if (announcedKeyOrder == null) {
            announcedKeyOrder = keyOrder;
            byte[] bytes = keyOrder.toBytes();
            for (int dest = 0; dest < size; dest++) {
                engine.sendControl(dest, MessageTag.KEY_ORDER, ByteBuffer.wrap(bytes));
            }
        } else {
            checkSameOrder(announcedKeyOrder, keyOrder, "Senders on rank " + rank);
        }
    }

    /** Queues an encoded block for the rank that receives its partition. */
    void sendBlock(int dest, ByteBuffer block) {
        if (dest < 0 || dest >= size) {
            throw new IllegalArgumentException("A block for rank " + dest + " of " + size);
        }
        engine.sendBlock(dest, block);
    }

    /**
     * Asks rank 0 for a task of the stage, reporting finishedTasks of it; returns its id or -1 when none is left.
     * (Rank 0 knows each rank's host from the group's start, for tasks that prefer one; while the tasks left are
     * held for other hosts' ranks it answers {@link TaskScheduler#ASK_AGAIN}, and this asks again.)
     */
    int requestTask(int stage, int finishedTasks) {
        int task = askForTask(stage, finishedTasks);
        while (task == TaskScheduler.ASK_AGAIN) {
            try {
                Thread.sleep(ASK_AGAIN_MILLIS);
            } catch (InterruptedException e) {
                throw interruptedWaitingForTask(stage, e);
            }
            engine.checkHealthy();
            task = askForTask(stage, 0);
        }
        return task;
    }

    private int askForTask(int stage, int finishedTasks) {
        CompletableFuture<Integer> grant = new CompletableFuture<>();
        synchronized (this) {
            pendingGrant = grant;
        }
        engine.sendControl(0, MessageTag.TASK_REQUEST,
                ByteBuffer.allocate(2 * Integer.BYTES).putInt(0, stage).putInt(Integer.BYTES, finishedTasks));
        while (true) {
            try {
                return grant.get(WAIT_SLICE_MILLIS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                engine.checkHealthy();
            } catch (InterruptedException e) {
                throw interruptedWaitingForTask(stage, e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
    }

    private static IllegalStateException interruptedWaitingForTask(int stage, InterruptedException e) {
        Thread.currentThread().interrupt();
        return new IllegalStateException("Interrupted while waiting for a task of stage " + stage, e);
    }

    /** Marks the end of this process's data of the stage on every channel, behind every block it queued. */
    void finishSending(int stage) {
        for (int dest = 0; dest < size; dest++) {
            engine.sendControl(dest, MessageTag.END_OF_DATA, ByteBuffer.allocate(Integer.BYTES).putInt(0, stage));
        }
    }

    /** Waits until every process has sent all its data of the stage: then every task of it has finished. */
    synchronized void awaitAllData(int stage) throws InterruptedException {
        while (endOfDataMarkers.getOrDefault(stage, 0) < size) {
            wait(WAIT_SLICE_MILLIS);
            engine.checkHealthy();
        }
    }

    /** Whether every process has sent all its data of the stage (awaitAllData would return at once). */
    synchronized boolean allDataArrived(int stage) {
        return endOfDataMarkers.getOrDefault(stage, 0) >= size;
    }

    /** The end-of-stage markers of any stage received so far. */
    synchronized long endMarkersReceived() {
        return endMarkersReceived;
    }

    /** Waits until more than SEEN end-of-stage markers have arrived, polling the engine's health. */
    synchronized void awaitEndMarkers(long seen) throws InterruptedException {
        while (endMarkersReceived <= seen) {
            wait(WAIT_SLICE_MILLIS);
            engine.checkHealthy();
        }
    }

    /** The pairs this process received for a partition, in key order, for a task that reads them with conf. */
    ShufflePairReceiver receiver(String task, TaskConf conf, int partition) {
        receivedKeyOrder().ifPresent(order -> checkSameOrder(order, conf.keyOrder(), task));
        return new ShufflePairReceiver(task, conf, receiveBuffers.open(partition));
    }

    /** The key order the O tasks announced, if any data was sent to this process. */
    synchronized Optional<KeyOrder> receivedKeyOrder() {
        return Optional.ofNullable(receivedKeyOrder);
    }

    /** A task of the stage finished here (rank 0 counts it for the job's progress). */
    void taskDone(int stage) {
        engine.sendControl(0, MessageTag.TASK_DONE, ByteBuffer.allocate(Integer.BYTES).putInt(0, stage));
    }

    @Override
    public void onMessage(int source, int tag, ByteBuffer payload) {
        switch (tag) {
            case MessageTag.DATA -> {
                ReceivedBlock block = ReceivedBlock.decode(payload);
                receiveBuffers.addRun(block.partition(), block.pairs(), block.pairCount());
            }
            case MessageTag.KEY_ORDER -> onKeyOrder(source, payload);
            case MessageTag.END_OF_DATA -> onEndOfData(payload.getInt(0));
            case MessageTag.TASK_REQUEST -> {
                int task = scheduler().grant(payload.getInt(0), source, payload.getInt(Integer.BYTES));
                engine.sendControl(source, MessageTag.TASK_GRANT, ByteBuffer.allocate(4).putInt(0, task));
            }
            case MessageTag.TASK_GRANT -> onGrant(payload.getInt());
            case MessageTag.TASK_DONE -> scheduler().taskDone(payload.getInt(0));
            case MessageTag.HEARTBEAT -> liveness.heard(source, payload);
            case MessageTag.SIGNING_OFF -> liveness.signedOff(source, payload);
            default -> throw new IllegalStateException("Unknown message tag " + tag + " from rank " + source);
        }
    }

    /** While received data is over its share and being spilled, the engine takes in no more. */
    @Override
    public boolean receivePaused() {
        return receiveBuffers.receivePaused();
    }

    private synchronized void onKeyOrder(int source, ByteBuffer payload) {
        byte[] bytes = new byte[payload.remaining()];
        payload.get(bytes);
        KeyOrder order = KeyOrder.fromBytes(bytes);
        if (receivedKeyOrder == null) {
            receivedKeyOrder = order;
            receiveBuffers.setComparator(order.comparator());
        } else {
            checkSameOrder(receivedKeyOrder, order, "O tasks on rank " + source);
        }
    }

    private TaskScheduler scheduler() {
        return scheduler.orElseThrow(() -> new IllegalStateException(
                "Rank " + rank + " got a scheduling message but only rank 0 schedules"));
    }

    private synchronized void onEndOfData(int stage) {
        endOfDataMarkers.merge(stage, 1, Integer::sum);
        endMarkersReceived++;
        notifyAll();
    }

    private synchronized void onGrant(int task) {
        pendingGrant.complete(task);
    }

    static void checkSameOrder(KeyOrder expected, KeyOrder actual, String who) {
        if (!expected.equals(actual)) {
            throw new IllegalStateException(who + " use key type " + actual.keyType() + " and comparator '"
                    + actual.comparatorClass() + "' but other tasks use " + expected.keyType() + " and '"
                    + expected.comparatorClass() + "': every task must set the same mpid.key.class and "
                    + "mpid.comparator.class");
        }
    }
}
