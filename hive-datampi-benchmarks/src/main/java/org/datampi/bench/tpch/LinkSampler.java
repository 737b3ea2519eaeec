package org.datampi.bench.tpch;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads every simulated host's sent-bytes counter at a fixed interval on a thread of its own, from the start until
 * {@link #close()}. A host dmpK of bin/cluster-sim sends on its eth0, the peer of this machine's veth-dmpK, so what
 * it sent (after tc's shaping on its eth0) is what veth-dmpK received: the counter is read from this machine's own
 * /sys, with no process started per reading. (Ranks on one host reach each other over its loopback, not counted.)
 */
final class LinkSampler implements AutoCloseable {
    private final List<Path> counters;
    private final long everyMillis;
    private final List<LinkSamples.Sample> taken = new ArrayList<>();
    private final Thread thread;
    /** Set by close: the thread ends after its current reading (an interrupt could break a read of /sys). */
    private volatile boolean stopping;
    private volatile IOException failure;

    private LinkSampler(List<Path> counters, Duration every) {
        this.counters = List.copyOf(counters);
        this.everyMillis = every.toMillis();
        this.thread = new Thread(this::sample, "link-sampler");
        this.thread.setDaemon(true);
    }

    /** Starts sampling HOSTS (dmp1, dmp2, ...) every EVERY; fails at once when a host's counter cannot be read. */
    static LinkSampler start(List<String> hosts, Duration every) throws IOException {
        requireNonNull(hosts, "hosts is null");
        requireNonNull(every, "every is null");
        List<Path> counters = hosts.stream()
                .map(host -> Path.of("/sys/class/net/veth-" + host + "/statistics/rx_bytes")).toList();
        for (Path counter : counters) {
            read(counter);
        }
        LinkSampler sampler = new LinkSampler(counters, every);
        sampler.thread.start();
        return sampler;
    }

    private void sample() {
        try {
            while (!stopping) {
                takeOne();
                Thread.sleep(everyMillis);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            failure = e;
        }
    }

    private void takeOne() throws IOException {
        List<Long> sent = new ArrayList<>(counters.size());
        long millis = System.currentTimeMillis();
        for (Path counter : counters) {
            sent.add(read(counter));
        }
        synchronized (taken) {
            taken.add(new LinkSamples.Sample(millis, sent));
        }
    }

    private static long read(Path counter) throws IOException {
        try {
            return Long.parseLong(Files.readString(counter).strip());
        } catch (NumberFormatException e) {
            throw new IOException("Not a byte count in " + counter, e);
        }
    }

    /** The samples so far. */
    LinkSamples samples() {
        synchronized (taken) {
            return new LinkSamples(taken);
        }
    }

    /** Stops sampling after a last reading; fails if a reading failed meanwhile. Idempotent. */
    @Override
    public void close() throws IOException {
        if (stopping) {
            return;
        }
        stopping = true;
        try {
            thread.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while stopping the link sampler", e);
        }
        if (failure != null) {
            throw new IOException("Reading a host's link counter failed: " + failure.getMessage(), failure);
        }
        takeOne();
    }
}
