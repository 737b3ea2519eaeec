package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.datampi.shuffle.ShuffleSettings;
import org.datampi.shuffle.engine.MessageTag;
import org.datampi.shuffle.engine.ShuffleEngine;

/**
 * Whether the job's ranks are still there, for the failures MPI itself reports late or never: a host whose network
 * went down leaves its peers' sends and receives pending with no error. Rank 0 hears a heartbeat from every rank
 * and every rank from rank 0, once per {@value #INTERVAL_MILLIS} ms over the shuffle's own channels; a rank unheard
 * for the timeout fails the job, naming the rank and the host it last reported. A rank that is through the job signs
 * off and is no longer expected. Every message carries the job's id: in a serving group, one job's late heartbeats
 * reach the next job's engine, which ignores them.
 *
 * <p>Threading: one daemon thread sends and checks; {@link #heard} and {@link #signedOff} come from the engine's
 * progress thread.
 */
final class Liveness implements AutoCloseable {
    static final long INTERVAL_MILLIS = 1000;

    private final String jobId;
    private final int rank;
    private final int size;
    private final byte[] heartbeat;
    private final byte[] signOff;
    private final ShuffleEngine engine;
    private final long timeoutNanos;
    private final Consumer<Throwable> onFailure;
    private final long[] lastHeard;
    private final String[] hosts;
    private final boolean[] gone;
    private final Thread thread;
    private volatile boolean closed;

    Liveness(String jobId, int rank, int size, String host, ShuffleEngine engine, Duration timeout,
            Consumer<Throwable> onFailure) {
        this.jobId = requireNonNull(jobId, "jobId is null");
        this.rank = rank;
        this.size = size;
        this.heartbeat = (jobId + "\n" + host).getBytes(StandardCharsets.UTF_8);
        this.signOff = jobId.getBytes(StandardCharsets.UTF_8);
        this.engine = requireNonNull(engine, "engine is null");
        this.timeoutNanos = timeout.toNanos();
        this.onFailure = requireNonNull(onFailure, "onFailure is null");
        this.lastHeard = new long[size];
        this.hosts = new String[size];
        this.gone = new boolean[size];
        Arrays.fill(hosts, "an unknown host");
        this.thread = new Thread(this::run, "datampi-liveness");
        this.thread.setDaemon(true);
    }

    void start() {
        long now = System.nanoTime();
        Arrays.fill(lastHeard, now);
        thread.start();
    }

    /** The peers this rank watches and sends to: rank 0 all others, the others rank 0. */
    private boolean watches(int peer) {
        return peer != rank && (rank == 0 || peer == 0);
    }

    synchronized void heard(int source, ByteBuffer payload) {
        String[] job = StandardCharsets.UTF_8.decode(payload).toString().split("\n", 2);
        if (job[0].equals(jobId) && job.length == 2) {
            lastHeard[source] = System.nanoTime();
            hosts[source] = job[1];
        }
    }

    synchronized void signedOff(int source, ByteBuffer payload) {
        if (StandardCharsets.UTF_8.decode(payload).toString().equals(jobId)) {
            gone[source] = true;
        }
    }

    private void run() {
        while (!closed) {
            for (int peer = 0; peer < size; peer++) {
                if (watches(peer)) {
                    engine.sendControl(peer, MessageTag.HEARTBEAT, ByteBuffer.wrap(heartbeat));
                }
            }
            String silent = silentPeers();
            if (silent != null) {
                onFailure.accept(new RankLostException("Lost " + silent + ": nothing heard for "
                        + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos) + " s (its host down or unreachable, or the "
                        + "rank stalled; " + ShuffleSettings.LIVENESS_TIMEOUT + " sets the wait)"));
                return;
            }
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized String silentPeers() {
        long now = System.nanoTime();
        StringBuilder silent = new StringBuilder();
        for (int peer = 0; peer < size; peer++) {
            if (watches(peer) && !gone[peer] && now - lastHeard[peer] > timeoutNanos) {
                silent.append(silent.length() == 0 ? "" : ", ").append("rank ").append(peer).append(" on ")
                        .append(hosts[peer]);
            }
        }
        return silent.length() == 0 ? null : silent.toString();
    }

    /** Stops watching and tells the watching ranks not to expect this one any more. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        for (int peer = 0; peer < size; peer++) {
            if (watches(peer)) {
                engine.sendControl(peer, MessageTag.SIGNING_OFF, ByteBuffer.wrap(signOff));
            }
        }
    }
}
