package org.datampi.bench.hs2;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a JVM holds at one moment, as a soak watches it age: its heap after a full collection (jcmd GC.run, then
 * GC.heap_info: what is still reachable), resident memory, threads and open file descriptors (/proc), and classes
 * loaded less those unloaded (jcmd PerfCounter.print). Taken with the JDK's own jcmd, which attaches to a JVM of the
 * same user.
 */
record JvmSample(long pid, long heapAfterGcBytes, long residentBytes, int threads, int fileDescriptors,
        long loadedClasses) {
    private static final long JCMD_SECONDS = 60;
    /** The used part of each heap space GC.heap_info names (ParallelGC's two generations, G1's and Serial's). */
    private static final Pattern HEAP_USED = Pattern.compile(
            "(?m)^\\s*(?:PSYoungGen|ParOldGen|garbage-first heap|def new generation|tenured generation)\\s+total \\d+K,"
                    + " used (\\d+)K");
    private static final Pattern COUNTER = Pattern.compile("(?m)^([\\w.]+)=(\\d+)$");

    /** The JVM of PROCESS now, after a full collection; empty if it ended meanwhile (a group that was replaced). */
    static Optional<JvmSample> take(ProcessHandle process) throws IOException, InterruptedException {
        requireNonNull(process, "process is null");
        long pid = process.pid();
        Optional<String> collected = jcmd(pid, "GC.run");
        Optional<String> heap = collected.isEmpty() ? Optional.empty() : jcmd(pid, "GC.heap_info");
        Optional<String> counters = heap.isEmpty() ? Optional.empty() : jcmd(pid, "PerfCounter.print");
        Path proc = Path.of("/proc", Long.toString(pid));
        if (counters.isEmpty() || !Files.isDirectory(proc)) {
            return Optional.empty();
        }
        try {
            String status = Files.readString(proc.resolve("status"), StandardCharsets.UTF_8);
            int fds;
            try (Stream<Path> open = Files.list(proc.resolve("fd"))) {
                fds = (int) open.count();
            }
            return Optional.of(new JvmSample(pid, heapUsedBytes(heap.get()), statusField(status, "VmRSS") * 1024,
                    (int) statusField(status, "Threads"), fds, loadedClasses(counters.get())));
        } catch (IOException e) {
            // The process ended between jcmd and /proc.
            return Optional.empty();
        }
    }

    static long heapUsedBytes(String heapInfo) {
        Matcher used = HEAP_USED.matcher(heapInfo);
        long kilobytes = 0;
        boolean found = false;
        while (used.find()) {
            kilobytes += Long.parseLong(used.group(1));
            found = true;
        }
        if (!found) {
            throw new IllegalArgumentException("jcmd GC.heap_info named no heap space this reads:\n" + heapInfo);
        }
        return kilobytes * 1024;
    }

    static long loadedClasses(String perfCounters) {
        long loaded = -1;
        long unloaded = 0;
        Matcher counter = COUNTER.matcher(perfCounters);
        while (counter.find()) {
            switch (counter.group(1)) {
                case "java.cls.loadedClasses" -> loaded = Long.parseLong(counter.group(2));
                case "java.cls.unloadedClasses" -> unloaded = Long.parseLong(counter.group(2));
                default -> { }
            }
        }
        if (loaded < 0) {
            throw new IllegalArgumentException("jcmd PerfCounter.print has no java.cls.loadedClasses");
        }
        return loaded - unloaded;
    }

    private static long statusField(String status, String field) {
        Matcher value = Pattern.compile("(?m)^" + field + ":\\s+(\\d+)").matcher(status);
        if (!value.find()) {
            throw new IllegalArgumentException("/proc/PID/status has no " + field);
        }
        return Long.parseLong(value.group(1));
    }

    /** jcmd PID COMMAND's output; empty when the JVM is gone (jcmd cannot attach). */
    private static Optional<String> jcmd(long pid, String command) throws IOException, InterruptedException {
        Path java = Path.of(ProcessHandle.current().info().command().orElse("java"));
        Path jcmd = java.resolveSibling("jcmd");
        List<String> line = new ArrayList<>(List.of(Files.isExecutable(jcmd) ? jcmd.toString() : "jcmd",
                Long.toString(pid), command));
        // Its output to a file, so that a jcmd that hangs (a JVM that does not answer) ends at the timeout.
        Path output = Files.createTempFile("jcmd-", ".out");
        try {
            Process process = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(output.toFile())
                    .start();
            if (!process.waitFor(JCMD_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("jcmd " + pid + " " + command + " did not end within " + JCMD_SECONDS + " s");
            }
            return process.exitValue() == 0 ? Optional.of(Files.readString(output, StandardCharsets.UTF_8))
                    : Optional.empty();
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
