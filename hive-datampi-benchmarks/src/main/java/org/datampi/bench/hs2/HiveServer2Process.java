package org.datampi.bench.hs2;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * bin/hiveserver2-datampi as a user starts it, in a process of its own on a free port with the engine's settings
 * (--hiveconf) and Hive's heap, its console in CONSOLE. Ready once its port accepts connections; stopped with SIGTERM,
 * as Ctrl-C stops it (also when the bench itself is stopped: a shutdown hook), and what is left of its process tree
 * (mpirun, ranks) killed if it has not ended on its own 60 s later.
 */
final class HiveServer2Process implements AutoCloseable {
    private static final long START_SECONDS = 300;
    private static final long STOP_SECONDS = 60;
    /** mpidrun's first line for a group of ranks that takes stages from Hive (its --serve mode). */
    private static final String GROUP_STARTED = "serving jobs from standard input";

    private final Process process;
    private final int port;
    private final Path console;
    private final Path log;
    private final Thread stopOnExit = new Thread(this::stop, "hiveserver2-stop");

    private HiveServer2Process(Process process, int port, Path console, Path log) {
        this.process = requireNonNull(process, "process is null");
        this.port = port;
        this.console = requireNonNull(console, "console is null");
        this.log = requireNonNull(log, "log is null");
    }

    /**
     * Starts the server and waits until it accepts connections; an error with its console's tail if it does not. LOG
     * is the server's own log (state/logs/hiveserver2-datampi.log), where the engine says when it starts a group;
     * ENVIRONMENT is added to the server's (HIVE_DATAMPI_CLASSPATH, for one).
     */
    static HiveServer2Process start(Path home, Map<String, String> settings, Map<String, String> environment,
            long heapMb, Path console, Path log) throws IOException, InterruptedException {
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/hiveserver2-datampi").toString(), "--port",
                Integer.toString(port)));
        settings.forEach((key, value) -> command.addAll(List.of("--hiveconf", key + "=" + value)));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(console.toFile());
        // Only what the caller passes: a HIVE_DATAMPI_CLASSPATH of the bench's own environment would reach every server.
        builder.environment().remove("HIVE_DATAMPI_CLASSPATH");
        builder.environment().putAll(environment);
        builder.environment().put("HIVE_DATAMPI_HEAP", heapMb + "m");
        // The bench's own build is the one to run: no rebuild by the server's start.
        builder.environment().put("DATAMPI_SETUP_DONE", "1");
        HiveServer2Process server = new HiveServer2Process(builder.start(), port, console, log);
        Runtime.getRuntime().addShutdownHook(server.stopOnExit);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (!server.accepts()) {
            if (!server.process.isAlive()) {
                server.close();
                throw new IllegalStateException("HiveServer2 ended (exit " + server.process.exitValue()
                        + ") before it listened on port " + port + "; its console " + console + " ends:\n"
                        + server.tail());
            }
            if (System.nanoTime() > deadline) {
                server.close();
                throw new IllegalStateException("HiveServer2 did not listen on port " + port + " within "
                        + START_SECONDS + " s; its console " + console + " ends:\n" + server.tail());
            }
            Thread.sleep(500);
        }
        return server;
    }

    String url(String database) {
        return "jdbc:hive2://localhost:" + port + "/" + database;
    }

    ProcessHandle handle() {
        return process.toHandle();
    }

    /**
     * How many groups of ranks have started, as the server's log counts them (mpidrun --serve's first line); the log
     * outlives one server, so callers take differences.
     */
    int groupsStarted() {
        if (!Files.exists(log)) {
            return 0;
        }
        try {
            return (int) Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                    .filter(line -> line.contains(GROUP_STARTED)).count();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read HiveServer2's log " + log, e);
        }
    }

    private boolean accepts() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("localhost", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private String tail() throws IOException {
        List<String> lines = Files.readAllLines(console, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down: the hook runs (or ran) stop, which is idempotent.
        }
    }

    /**
     * SIGTERM to the server, which ends its sessions and their groups of ranks; whatever of its tree is still alive
     * once STOP_SECONDS have passed (the server's and its ranks' own cleanup included) is killed.
     */
    private void stop() {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        process.destroy();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_SECONDS);
        try {
            while (System.nanoTime() < deadline
                    && (process.isAlive() || tree.stream().anyMatch(ProcessHandle::isAlive))) {
                Thread.sleep(200);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }
}
