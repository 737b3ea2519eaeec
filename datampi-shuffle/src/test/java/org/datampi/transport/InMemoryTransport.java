package org.datampi.transport;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A world of ranks in one JVM for unit tests of what runs over a {@link Transport}, with MPI's matching rules (the
 * first message of a source and tag is matched first; a probe for one tag may overtake another's) and faults to
 * inject: a peer that takes in nothing ({@link #stall}: sends to it stay incomplete, as they would once MPI's eager
 * buffers are full), a peer that dies ({@link #kill}: every call that involves it fails, as MPI reports a lost
 * process) and a message lost on the way ({@link #loseNext}). Sends are copied when posted; a send completes once its
 * destination could take it. Thread-safe: each rank's endpoint is used by its engine's progress thread, faults come
 * from the test's thread.
 */
public final class InMemoryTransport {
    private static final int ANY_SOURCE = -1;
    private static final int ANY_TAG = -1;

    private final int size;
    /** Per destination, its messages in the order they were sent. */
    private final List<List<Message>> inboxes = new ArrayList<>();
    private final Set<Integer> stalled = new HashSet<>();
    private final Set<Integer> dead = new HashSet<>();
    /** Requests complete but not yet tested. */
    private final Set<Long> completed = new HashSet<>();
    /** Sends to a stalled rank, by their destination: they complete when it resumes or takes them in. */
    private final Map<Long, Integer> pendingSends = new HashMap<>();
    /** Per destination, how many of the next messages to it are lost. */
    private final int[] toLose;
    private long nextHandle = 1;

    public InMemoryTransport(int size) {
        this.size = size;
        this.toLose = new int[size];
        for (int i = 0; i < size; i++) {
            inboxes.add(new ArrayList<>());
        }
    }

    /** Rank RANK's end of the world. */
    public Transport endpoint(int rank) {
        return new Endpoint(rank);
    }

    /** RANK takes in nothing until {@link #resume}: its inbox is not visible and sends to it do not complete. */
    public synchronized void stall(int rank) {
        stalled.add(rank);
    }

    public synchronized void resume(int rank) {
        stalled.remove(rank);
        for (Iterator<Map.Entry<Long, Integer>> sends = pendingSends.entrySet().iterator(); sends.hasNext();) {
            Map.Entry<Long, Integer> send = sends.next();
            if (send.getValue() == rank) {
                completed.add(send.getKey());
                sends.remove();
            }
        }
    }

    /** RANK is gone: its own calls and every send to it, pending or new, fail. */
    public synchronized void kill(int rank) {
        dead.add(rank);
    }

    /** The next COUNT messages sent to DEST vanish on the way: their sends complete, nothing arrives. */
    public synchronized void loseNext(int dest, int count) {
        toLose[dest] += count;
    }

    private synchronized Request send(int source, ByteBuffer buffer, int dest, int tag) {
        checkAlive(source, "MPI_Isend");
        checkAlive(dest, "MPI_Isend to rank " + dest);
        ByteBuffer copy = ByteBuffer.allocate(buffer.remaining()).put(buffer.duplicate()).flip();
        Request request = new Request(nextHandle++, buffer);
        if (toLose[dest] > 0) {
            toLose[dest]--;
            completed.add(request.handle());
            return request;
        }
        inboxes.get(dest).add(new Message(source, tag, copy, request.handle()));
        if (stalled.contains(dest)) {
            pendingSends.put(request.handle(), dest);
        } else {
            completed.add(request.handle());
        }
        return request;
    }

    private synchronized ProbeStatus probe(int rank, int source, int tag) {
        checkAlive(rank, "MPI_Iprobe");
        if (stalled.contains(rank)) {
            return null;
        }
        Message message = firstMatch(rank, source, tag, false);
        return message == null ? null : new ProbeStatus(message.source, message.tag, message.payload.remaining());
    }

    private synchronized Request receive(int rank, ByteBuffer buffer, int source, int tag) {
        checkAlive(rank, "MPI_Irecv");
        Message message = firstMatch(rank, source, tag, true);
        if (message == null) {
            throw new IllegalStateException("rank " + rank + " posted a receive from " + source + " with tag " + tag
                    + " that matches nothing probed; the engine receives only what it probed");
        }
        buffer.duplicate().put(message.payload);
        Request request = new Request(nextHandle++, buffer);
        completed.add(request.handle());
        return request;
    }

    private synchronized boolean test(int rank, Request request) {
        checkAlive(rank, "MPI_Test");
        if (!request.isComplete() && completed.remove(request.handle())) {
            request.markComplete();
        }
        Integer dest = pendingSends.get(request.handle());
        if (dest != null) {
            checkAlive(dest, "MPI_Test of a send to rank " + dest);
        }
        return request.isComplete();
    }

    private Message firstMatch(int rank, int source, int tag, boolean remove) {
        for (Iterator<Message> messages = inboxes.get(rank).iterator(); messages.hasNext();) {
            Message message = messages.next();
            if ((source == ANY_SOURCE || source == message.source) && (tag == ANY_TAG || tag == message.tag)) {
                if (remove) {
                    messages.remove();
                    if (pendingSends.remove(message.sendHandle) != null) {
                        completed.add(message.sendHandle);
                    }
                }
                return message;
            }
        }
        return null;
    }

    private void checkAlive(int rank, String call) {
        if (rank < 0 || rank >= size) {
            throw new MpiException(call + ": no rank " + rank + " in a world of " + size);
        }
        if (dead.contains(rank)) {
            throw new MpiException(call + ": rank " + rank + " is gone (MPI_ERR_PROC_FAILED)");
        }
    }

    private record Message(int source, int tag, ByteBuffer payload, long sendHandle) {
    }

    private final class Endpoint implements Transport {
        private final int rank;

        Endpoint(int rank) {
            this.rank = rank;
        }

        @Override
        public int anySource() {
            return ANY_SOURCE;
        }

        @Override
        public int anyTag() {
            return ANY_TAG;
        }

        @Override
        public Request isend(ByteBuffer buffer, int dest, int tag) {
            return send(rank, buffer, dest, tag);
        }

        @Override
        public Request irecv(ByteBuffer buffer, int source, int tag) {
            return receive(rank, buffer, source, tag);
        }

        @Override
        public boolean test(Request request) {
            return InMemoryTransport.this.test(rank, request);
        }

        @Override
        public ProbeStatus iprobe(int source, int tag) {
            return probe(rank, source, tag);
        }
    }
}
