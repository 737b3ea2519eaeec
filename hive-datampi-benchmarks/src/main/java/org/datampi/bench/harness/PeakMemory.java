package org.datampi.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The peak resident memory of a process and every process it started (for datampi: mpirun and the rank JVMs), or of
 * several such trees together (HiveServer2 and the YARN daemons its Tez sessions run on), sampled from /proc every
 * {@value #SAMPLE_MILLIS} ms while a root runs.
 */
public final class PeakMemory implements AutoCloseable {
    private static final long SAMPLE_MILLIS = 200;

    private final List<ProcessHandle> roots;
    private final AtomicLong peakKilobytes = new AtomicLong();
    private final Thread sampler;

    public PeakMemory(ProcessHandle root) {
        this(List.of(root));
    }

    public PeakMemory(List<ProcessHandle> roots) {
        this.roots = List.copyOf(roots);
        this.sampler = new Thread(this::sample, "peak-memory");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void sample() {
        while (roots.stream().anyMatch(ProcessHandle::isAlive)) {
            long total = roots.stream().flatMap(root -> Stream.concat(Stream.of(root), root.descendants()))
                    .mapToLong(PeakMemory::rssKilobytes).sum();
            peakKilobytes.accumulateAndGet(total, Math::max);
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
