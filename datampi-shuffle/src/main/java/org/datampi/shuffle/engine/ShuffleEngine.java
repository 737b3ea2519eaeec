package org.datampi.shuffle.engine;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.datampi.shuffle.buffer.BufferPool;
import org.datampi.transport.ProbeStatus;
import org.datampi.transport.Request;
import org.datampi.transport.Transport;

/**
 * The non-blocking shuffle engine of the paper's Fig. 7, driven by one progress thread per process: it posts
 * MPI_Isend for queued blocks, probes for and receives incoming messages into direct buffers, tests the pending
 * requests and hands completed messages to the handler in the order each source sent them.
 *
 * <p>Only this thread calls MPI (through its {@link Transport}) while the engine runs, so task threads never spin in
 * MPI. When there is nothing to do it backs off from spinning to yielding to parking, so that it leaves the core to
 * the O task on a 2-core machine. The send queue is bounded by {@code sendQueue} data blocks in flight or waiting:
 * an O task that outruns the network waits for a permit instead of filling the heap. While the handler is full
 * ({@link MessageHandler#receivePaused}: its received data over budget while a spill brings it down) the engine takes
 * in only the ranks' heartbeats and leaves every other message with the transport (its sender's send queue fills and
 * waits), but goes on sending: a rank that writes to disk never stops the others' progress through it.
 *
 * <p>Threading: {@link #sendBlock}, {@link #sendControl}, {@link #checkHealthy} and {@link #drainAndStop} are called by
 * any thread; only the progress thread calls the transport and the handler. Every wait of a calling thread polls the
 * engine's health, so that a failed progress thread fails it instead of leaving it waiting.
 */
public final class ShuffleEngine {
    /** Receives every message, in per-source send order, on the progress thread; must copy what it keeps. */
    @FunctionalInterface
    public interface MessageHandler {
        void onMessage(int source, int tag, ByteBuffer payload);

        /**
         * Whether the handler takes no more data for now (asked before each probe): its memory is over budget while
         * a spill brings it down. It must become false again without further messages.
         */
        default boolean receivePaused() {
            return false;
        }
    }

    private static final int PROBES_PER_ROUND = 16;
    private static final long MAX_PARK_IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long MAX_PARK_BUSY_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    private static final long FAILURE_CHECK_MILLIS = 100;
    /**
     * What is received while the handler pauses: liveness only, which carries nothing ordered with the data (a probe
     * for one tag may overtake the others', so an end-of-data marker must never be taken before the data it follows).
     */
    private static final int[] TAGS_WHILE_PAUSED = {MessageTag.HEARTBEAT, MessageTag.SIGNING_OFF};

    private final Transport transport;
    private final BufferPool pool;
    private final MessageHandler handler;
    private final Consumer<Throwable> onFailure;
    private final Semaphore blockPermits;
    private final ConcurrentLinkedQueue<Outbound> outbound = new ConcurrentLinkedQueue<>();
    private final List<InFlight> inFlight = new ArrayList<>();
    private final ArrayDeque<PendingReceive>[] pendingBySource;
    private final Thread progressThread;
    private volatile boolean stopRequested;
    private volatile Throwable failure;
    private long blocksSent;
    private long bytesSent;

    @SuppressWarnings("unchecked")
    public ShuffleEngine(Transport transport, int worldSize, BufferPool pool, int sendQueue, MessageHandler handler,
            Consumer<Throwable> onFailure) {
        this.transport = requireNonNull(transport, "transport is null");
        this.pool = requireNonNull(pool, "pool is null");
        this.handler = requireNonNull(handler, "handler is null");
        this.onFailure = requireNonNull(onFailure, "onFailure is null");
        this.blockPermits = new Semaphore(sendQueue);
        this.pendingBySource = new ArrayDeque[worldSize];
        for (int i = 0; i < worldSize; i++) {
            pendingBySource[i] = new ArrayDeque<>();
        }
        this.progressThread = new Thread(this::run, "datampi-progress");
        this.progressThread.setDaemon(true);
    }

    public void start() {
        progressThread.start();
    }

    /**
     * Queues a pooled block buffer for dest, waiting while {@code sendQueue} blocks are already queued or in flight.
     * The buffer goes back to the pool once MPI has sent it.
     */
    public void sendBlock(int dest, ByteBuffer block) {
        try {
            while (!blockPermits.tryAcquire(FAILURE_CHECK_MILLIS, TimeUnit.MILLISECONDS)) {
                checkHealthy();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the send queue", e);
        }
        enqueue(new Outbound(dest, MessageTag.DATA, block, true));
    }

    /** Queues a small control message behind everything queued before it; it takes no send-queue permit. */
    public void sendControl(int dest, int tag, ByteBuffer payload) {
        ByteBuffer direct = ByteBuffer.allocateDirect(payload.remaining()).put(payload).flip();
        enqueue(new Outbound(dest, tag, direct, false));
    }

    private void enqueue(Outbound message) {
        checkHealthy();
        outbound.add(message);
        LockSupport.unpark(progressThread);
    }

    /** Throws if the progress thread has failed, so that a waiting task thread does not wait forever. */
    public void checkHealthy() {
        Throwable cause = failure;
        if (cause != null) {
            throw new IllegalStateException("The shuffle engine failed: " + cause, cause);
        }
    }

    /** Sends everything queued, then stops the progress thread. Messages arriving afterwards are not received. */
    public void drainAndStop() {
        stopRequested = true;
        LockSupport.unpark(progressThread);
        try {
            while (progressThread.isAlive()) {
                progressThread.join(FAILURE_CHECK_MILLIS);
                checkHealthy();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while draining the send queue", e);
        }
        checkHealthy();
    }

    public long blocksSent() {
        return blocksSent;
    }

    public long bytesSent() {
        return bytesSent;
    }

    private void run() {
        int idleRounds = 0;
        try {
            while (true) {
                boolean progressed = postSends() | completeSends() | probe() | completeReceives();
                if (stopRequested && outbound.isEmpty() && inFlight.isEmpty()) {
                    return;
                }
                idleRounds = progressed ? 0 : idleRounds + 1;
                backOff(idleRounds);
            }
        } catch (Throwable t) {
            failure = t;
            onFailure.accept(t);
        }
    }

    private boolean postSends() {
        boolean posted = false;
        for (Outbound message = outbound.poll(); message != null; message = outbound.poll()) {
            inFlight.add(new InFlight(transport.isend(message.buffer, message.dest, message.tag), message));
            posted = true;
        }
        return posted;
    }

    private boolean completeSends() {
        boolean completed = false;
        for (int i = inFlight.size() - 1; i >= 0; i--) {
            InFlight send = inFlight.get(i);
            if (transport.test(send.request)) {
                int last = inFlight.size() - 1;
                inFlight.set(i, inFlight.get(last));
                inFlight.remove(last);
                if (send.message.pooled) {
                    blocksSent++;
                    bytesSent += send.message.buffer.limit();
                    pool.release(send.message.buffer);
                    blockPermits.release();
                }
                completed = true;
            }
        }
        return completed;
    }

    /**
     * Receives up to {@value #PROBES_PER_ROUND} messages, each handed on as soon as it completes, and asks the
     * handler before each whether it takes more: a handler over its memory budget gets no more than the receives
     * that had not completed when it paused.
     */
    private boolean probe() {
        boolean received = false;
        for (int i = 0; i < PROBES_PER_ROUND; i++) {
            if (handler.receivePaused()) {
                for (int tag : TAGS_WHILE_PAUSED) {
                    received |= receiveNext(tag);
                }
                return received;
            }
            if (!receiveNext(transport.anyTag())) {
                break;
            }
            completeReceives();
            received = true;
        }
        return received;
    }

    /** Posts the receive of the next message with TAG (any, or one), if one has arrived. */
    private boolean receiveNext(int tag) {
        ProbeStatus status = transport.iprobe(transport.anySource(), tag);
        if (status == null) {
            return false;
        }
        ByteBuffer buffer = pool.acquire(status.byteCount());
        buffer.limit(status.byteCount());
        // With a single receiving thread, the receive posted right after a probe matches the probed message.
        Request request = transport.irecv(buffer, status.source(), status.tag());
        pendingBySource[status.source()].add(new PendingReceive(request, status.tag()));
        return true;
    }

    private boolean completeReceives() {
        boolean delivered = false;
        for (int source = 0; source < pendingBySource.length; source++) {
            ArrayDeque<PendingReceive> pending = pendingBySource[source];
            while (!pending.isEmpty() && transport.test(pending.peekFirst().request)) {
                PendingReceive receive = pending.pollFirst();
                ByteBuffer payload = receive.request.buffer();
                payload.position(0);
                handler.onMessage(source, receive.tag, payload);
                pool.release(payload);
                delivered = true;
            }
        }
        return delivered;
    }

    private void backOff(int idleRounds) {
        if (idleRounds == 0) {
            return;
        }
        if (idleRounds < 64) {
            Thread.onSpinWait();
        } else if (idleRounds < 96) {
            Thread.yield();
        } else {
            boolean busy = !inFlight.isEmpty() || hasPendingReceives();
            long park = Math.min(busy ? MAX_PARK_BUSY_NANOS : MAX_PARK_IDLE_NANOS,
                    1_000L << Math.min(idleRounds - 96, 20));
            LockSupport.parkNanos(park);
        }
    }

    private boolean hasPendingReceives() {
        for (ArrayDeque<PendingReceive> pending : pendingBySource) {
            if (!pending.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private record Outbound(int dest, int tag, ByteBuffer buffer, boolean pooled) {
    }

    private record InFlight(Request request, Outbound message) {
    }

    private record PendingReceive(Request request, int tag) {
    }
}
