package org.datampi.hive.client;

import static java.util.Objects.requireNonNull;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * Hive's console for a job whose lines may be said on other threads. Hive's console prints into the session of the
 * thread that prints (its SessionState and HiveServer2's operation log are thread-local), so a line said on another
 * thread (a retry's, started on a thread of the job's own) waits here until the thread that made the relay, Hive's,
 * which polls the job, {@link #flush flushes} it. A line said on Hive's thread goes out at once, after those waiting.
 * Thread-safe.
 */
final class ConsoleRelay implements Consumer<String> {
    private final Consumer<String> console;
    private final Thread hive = Thread.currentThread();
    private final Queue<String> waiting = new ConcurrentLinkedQueue<>();

    /** On Hive's thread: CONSOLE prints a line where Hive's own lines go. */
    ConsoleRelay(Consumer<String> console) {
        this.console = requireNonNull(console, "console is null");
    }

    @Override
    public void accept(String line) {
        waiting.add(requireNonNull(line, "line is null"));
        flush();
    }

    /** Prints the lines said so far, when called on Hive's thread; elsewhere they wait for it. */
    void flush() {
        if (Thread.currentThread() != hive) {
            return;
        }
        for (String line = waiting.poll(); line != null; line = waiting.poll()) {
            console.accept(line);
        }
    }
}
