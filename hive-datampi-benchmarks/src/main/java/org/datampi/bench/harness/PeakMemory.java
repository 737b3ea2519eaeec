package org.datampi.bench.harness;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.stream.Stream;

/**
 * The peak resident memory of a process and every process it started (for datampi: mpirun and the rank JVMs), or of
 * several such trees together (HiveServer2 and the YARN daemons its Tez sessions run on), sampled from /proc every
 * {@value #SAMPLE_MILLIS} ms while a root runs. An optional listener hears each new peak as it is sampled, so that a
 * caller can keep it where an interrupted run leaves it (BenchmarkDriver's --resume).
 */
public final class PeakMemory implements AutoCloseable {
    private static final long SAMPLE_MILLIS = 200;

    private final List<ProcessHandle> roots;
    private final AtomicLong peakKilobytes = new AtomicLong();
    private final LongConsumer onNewPeakMegabytes;
    private final Thread sampler;

    public PeakMemory(ProcessHandle root) {
        this(List.of(root));
    }

    public PeakMemory(List<ProcessHandle> roots) {
        this(roots, megabytes -> { });
    }

    /** As {@link #PeakMemory(List)}, calling ON_NEW_PEAK_MEGABYTES (on the sampling thread) when the peak grows. */
    public PeakMemory(List<ProcessHandle> roots, LongConsumer onNewPeakMegabytes) {
        this.roots = List.copyOf(roots);
        this.onNewPeakMegabytes = requireNonNull(onNewPeakMegabytes, "onNewPeakMegabytes is null");
        this.sampler = new Thread(this::sample, "peak-memory");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void sample() {
        while (roots.stream().anyMatch(ProcessHandle::isAlive)) {
            long total = roots.stream().flatMap(root -> Stream.concat(Stream.of(root), root.descendants()))
                    .mapToLong(PeakMemory::rssKilobytes).sum();
            long before = peakKilobytes.getAndAccumulate(total, Math::max);
            if (total / 1024 > before / 1024) {
                onNewPeakMegabytes.accept(total / 1024);
            }
            try {
                Thread.sleep(SAMPLE_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** VmRSS of one process; 0 when it has just ended. */
    private static long rssKilobytes(ProcessHandle process) {
        try {
            List<String> status = Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"));
            return status.stream().filter(line -> line.startsWith("VmRSS:"))
                    .mapToLong(line -> Long.parseLong(line.replaceAll("\\D", ""))).findFirst().orElse(0);
        } catch (IOException e) {
            return 0;
        }
    }

    public long peakMegabytes() {
        return peakKilobytes.get() / 1024;
    }

    @Override
    public void close() throws InterruptedException {
        sampler.interrupt();
        sampler.join();
    }
}
