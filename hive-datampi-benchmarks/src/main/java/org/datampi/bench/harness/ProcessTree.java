package org.datampi.bench.harness;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Stopping a process the harness started, and everything it started, without waiting on it for ever. */
public final class ProcessTree {
    private ProcessTree() {
    }

    /**
     * Asks PROCESS to end (its own shutdown hooks stop what it started: ranks, YARN, a Hive session), then, after
     * SECONDS, kills what it started and left (or all of it, if it did not end) and itself. Returns whether it ended
     * within SECONDS of being asked.
     */
    public static boolean stop(Process process, long seconds) {
        if (!process.isAlive()) {
            return true;
        }
        List<ProcessHandle> started = process.descendants().toList();
        process.destroy();
        boolean ended = false;
        try {
            ended = process.waitFor(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Stream.concat(started.stream(), process.descendants()).filter(ProcessHandle::isAlive)
                .forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        return ended;
    }
}
