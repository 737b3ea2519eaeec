package org.datampi.shuffle.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.datampi.shuffle.buffer.BufferPool;
import org.datampi.transport.InMemoryTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shuffle engine over an in-memory transport (no MPI), with faults injected: what it promises about order, its
 * bounded send queue, a receiver that pauses, and a peer that stalls or dies.
 */
@Timeout(30)
class ShuffleEngineTest {
    private static final int BLOCK = 64;

    private final List<ShuffleEngine> engines = new ArrayList<>();

    @AfterEach
    void stopEngines() {
        for (ShuffleEngine engine : engines) {
            try {
                engine.drainAndStop();
            } catch (IllegalStateException e) {
                // A test's failed engine: stopped already.
            }
        }
    }

    /** Three ranks each send 200 numbered blocks to every rank: each arrives once, in the order its source sent it. */
    @Test
    void everyBlockArrivesOnceInTheOrderItsSourceSentIt() throws Exception {
        InMemoryTransport world = new InMemoryTransport(3);
        List<List<String>> received = new ArrayList<>();
        List<ShuffleEngine> ranks = new ArrayList<>();
        for (int rank = 0; rank < 3; rank++) {
            List<String> log = Collections.synchronizedList(new ArrayList<>());
            received.add(log);
            ranks.add(start(world, rank, 3, 4, (source, tag, payload) -> log.add(source + ":" + payload.getInt(0)),
                    failure -> { }));
        }
        for (int block = 0; block < 200; block++) {
            for (int source = 0; source < 3; source++) {
                for (int dest = 0; dest < 3; dest++) {
                    ranks.get(source).sendBlock(dest, block(block));
                }
            }
        }
        awaitTrue(() -> received.stream().allMatch(log -> log.size() == 600), "every block arrived");
        for (List<String> log : received) {
            for (int source = 0; source < 3; source++) {
                String prefix = source + ":";
                List<String> fromSource = log.stream().filter(entry -> entry.startsWith(prefix)).toList();
                List<String> inOrder = new ArrayList<>();
                for (int block = 0; block < 200; block++) {
                    inOrder.add(prefix + block);
                }
                assertEquals(inOrder, fromSource, "blocks of rank " + source);
            }
        }
    }

    /**
     * A peer that takes in nothing: the sender's task thread gets as far as its send queue (3 blocks) and waits
     * there, holding no more; when the peer resumes every block arrives.
     */
    @Test
    void aStalledPeerHoldsTheSenderAtItsSendQueue() throws Exception {
        InMemoryTransport world = new InMemoryTransport(2);
        AtomicInteger arrived = new AtomicInteger();
        ShuffleEngine sender = start(world, 0, 2, 3, (source, tag, payload) -> { }, failure -> { });
        start(world, 1, 2, 3, (source, tag, payload) -> arrived.incrementAndGet(), failure -> { });
        world.stall(1);
        AtomicInteger queued = new AtomicInteger();
        Thread task = new Thread(() -> {
            for (int block = 0; block < 10; block++) {
                sender.sendBlock(1, block(block));
                queued.incrementAndGet();
            }
        });
        task.start();
        awaitTrue(() -> queued.get() == 3, "the send queue filled");
        TimeUnit.MILLISECONDS.sleep(300);
        assertEquals(3, queued.get(), "the task waits at its send queue");
        assertEquals(0, arrived.get());
        world.resume(1);
        task.join(10_000);
        awaitTrue(() -> arrived.get() == 10, "every block arrived once the peer resumed");
    }

    /**
     * A peer that dies while a task waits at the send queue for it: the engine fails, says so once, and the waiting
     * task thread gets the failure instead of waiting for ever.
     */
    @Test
    void aDeadPeerFailsTheWaitingTaskInsteadOfHangingIt() throws Exception {
        InMemoryTransport world = new InMemoryTransport(2);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        ShuffleEngine sender = start(world, 0, 2, 2, (source, tag, payload) -> { }, failures::add);
        world.stall(1);
        CompletableFuture<Void> task = CompletableFuture.runAsync(() -> {
            for (int block = 0; block < 10; block++) {
                sender.sendBlock(1, block(block));
            }
        });
        TimeUnit.MILLISECONDS.sleep(200);
        assertFalse(task.isDone(), "the task waits at its send queue");
        world.kill(1);
        Throwable error = assertThrows(Exception.class, () -> task.get(5, TimeUnit.SECONDS)).getCause();
        assertInstanceOf(IllegalStateException.class, error);
        assertTrue(error.getMessage().contains("rank 1 is gone"), error.getMessage());
        assertEquals(1, failures.size(), "the failure is reported once: " + failures);
        assertThrows(IllegalStateException.class, sender::checkHealthy);
        engines.remove(sender);
    }

    /**
     * While the handler pauses (its memory over budget while it spills), the engine takes in heartbeats but leaves
     * data with the transport, and goes on sending its own blocks; once it resumes, the data arrives in order.
     */
    @Test
    void aPausedReceiverTakesInHeartbeatsOnlyAndStillSends() throws Exception {
        InMemoryTransport world = new InMemoryTransport(2);
        AtomicBoolean paused = new AtomicBoolean(true);
        List<String> received = new CopyOnWriteArrayList<>();
        AtomicInteger arrivedAtPeer = new AtomicInteger();
        ShuffleEngine receiver = start(world, 0, 2, 2, new ShuffleEngine.MessageHandler() {
            @Override
            public void onMessage(int source, int tag, ByteBuffer payload) {
                received.add(tag == MessageTag.HEARTBEAT ? "heartbeat" : "data " + payload.getInt(0));
            }

            @Override
            public boolean receivePaused() {
                return paused.get();
            }
        }, failure -> { });
        ShuffleEngine peer = start(world, 1, 2, 8, (source, tag, payload) -> arrivedAtPeer.incrementAndGet(),
                failure -> { });
        for (int block = 0; block < 3; block++) {
            peer.sendBlock(0, block(block));
        }
        peer.sendControl(0, MessageTag.HEARTBEAT, ByteBuffer.allocate(4));
        for (int block = 0; block < 5; block++) {
            receiver.sendBlock(1, block(block));
        }
        awaitTrue(() -> received.contains("heartbeat"), "the heartbeat got through");
        awaitTrue(() -> arrivedAtPeer.get() == 5, "the paused rank still sent its blocks");
        TimeUnit.MILLISECONDS.sleep(100);
        assertEquals(List.of("heartbeat"), received, "no data while paused");
        paused.set(false);
        awaitTrue(() -> received.size() == 4, "the data arrived once resumed");
        assertEquals(List.of("heartbeat", "data 0", "data 1", "data 2"), received);
    }

    /**
     * A message lost on the way never arrives, and the engine goes on with the rest: what notices is above the engine
     * (a missing end-of-data marker keeps its stage from ending; the stage timeout ends that).
     */
    @Test
    void aLostMessageIsNotInventedAndTheRestArrive() throws Exception {
        InMemoryTransport world = new InMemoryTransport(2);
        List<Integer> received = new CopyOnWriteArrayList<>();
        ShuffleEngine sender = start(world, 0, 2, 4, (source, tag, payload) -> { }, failure -> { });
        start(world, 1, 2, 4, (source, tag, payload) -> received.add(payload.getInt(0)), failure -> { });
        world.loseNext(1, 1);
        for (int block = 0; block < 4; block++) {
            sender.sendBlock(1, block(block));
        }
        awaitTrue(() -> received.size() == 3, "the other blocks arrived");
        TimeUnit.MILLISECONDS.sleep(100);
        assertEquals(List.of(1, 2, 3), received);
    }

    private ShuffleEngine start(InMemoryTransport world, int rank, int size, int sendQueue,
            ShuffleEngine.MessageHandler handler, Consumer<Throwable> onFailure) {
        ShuffleEngine engine = new ShuffleEngine(world.endpoint(rank), size, new BufferPool(BLOCK, 8), sendQueue,
                handler, onFailure);
        engine.start();
        engines.add(engine);
        return engine;
    }

    private static ByteBuffer block(int number) {
        return ByteBuffer.allocateDirect(BLOCK).putInt(0, number).limit(Integer.BYTES);
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s: " + what);
            }
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }
}
