package org.datampi.status;

import static java.util.Objects.requireNonNull;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job runner's end of one process group's status channel ({@link RankStatus}): a server socket that the group's
 * ranks connect to ({@link StatusSender}; the address and a token go into their environment, {@link #environment}),
 * each connection read by a thread of its own, each record handed to the sink in the order its rank sent it. The
 * token, random per group and passed in the environment rather than on a command line, turns away connections that
 * are not the group's own. For ranks on this host alone the socket listens on the loopback interface only.
 *
 * <p>Thread-safe. The sink is called from the connections' threads, for records of different ranks possibly at once;
 * an exception it throws is logged and the connection read on.
 */
public final class StatusReceiver implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatusReceiver.class);
    /** How often the accepting thread looks up from accept(), which is how {@link #awaitDrained} knows it is done. */
    private static final int ACCEPT_POLL_MILLIS = 50;
    /** How long a connection may take to greet before it is dropped. */
    private static final int GREETING_TIMEOUT_MILLIS = 10_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ServerSocket server;
    private final String advertisedHost;
    private final String token;
    private final Consumer<RankStatus> sink;
    private final Set<Socket> connections = new HashSet<>();
    /** How many times accept() found no connection waiting; guarded by this. */
    private long emptyAccepts;
    private boolean closed;

    private StatusReceiver(ServerSocket server, String advertisedHost, Consumer<RankStatus> sink) {
        this.server = requireNonNull(server, "server is null");
        this.advertisedHost = requireNonNull(advertisedHost, "advertisedHost is null");
        this.sink = requireNonNull(sink, "sink is null");
        byte[] secret = new byte[16];
        RANDOM.nextBytes(secret);
        this.token = HexFormat.of().formatHex(secret);
    }

    /**
     * Listens on a free port: on every interface, under this host's name, when ranks run on other hosts too
     * (ACROSS_HOSTS), else on the loopback interface.
     */
    public static StatusReceiver open(boolean acrossHosts, Consumer<RankStatus> sink) {
        ServerSocket server = null;
        try {
            server = acrossHosts ? new ServerSocket(0) : new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            String host = acrossHosts ? InetAddress.getLocalHost().getHostName()
                    : InetAddress.getLoopbackAddress().getHostAddress();
            server.setSoTimeout(ACCEPT_POLL_MILLIS);
            StatusReceiver receiver = new StatusReceiver(server, host, sink);
            Thread acceptor = new Thread(receiver::accept, "datampi-status-accept-" + server.getLocalPort());
            acceptor.setDaemon(true);
            acceptor.start();
            return receiver;
        } catch (IOException e) {
            if (server != null) {
                closeQuietly(server);
            }
            throw new UncheckedIOException("Cannot open the status channel for the ranks: " + e, e);
        }
    }

    /** The variables that tell the ranks where to send their records ({@link StatusSender#fromEnvironment}). */
    public Map<String, String> environment() {
        return Map.of(StatusSender.ADDRESS_VARIABLE, advertisedHost + ":" + server.getLocalPort(),
                StatusSender.TOKEN_VARIABLE, token);
    }

    private void accept() {
        while (!server.isClosed()) {
            Socket connection;
            try {
                connection = server.accept();
            } catch (SocketTimeoutException e) {
                synchronized (this) {
                    emptyAccepts++;
                    notifyAll();
                }
                continue;
            } catch (IOException e) {
                if (!server.isClosed()) {
                    LOG.warn("The status channel stopped accepting connections", e);
                }
                break;
            }
            synchronized (this) {
                if (closed) {
                    closeQuietly(connection);
                    break;
                }
                connections.add(connection);
            }
            Thread reader = new Thread(() -> read(connection), "datampi-status-read-" + connection.getPort());
            reader.setDaemon(true);
            reader.start();
        }
    }

    private void read(Socket connection) {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(connection.getInputStream()))) {
            connection.setSoTimeout(GREETING_TIMEOUT_MILLIS);
            StatusCodec.readGreeting(in, token);
            connection.setSoTimeout(0);
            for (Optional<RankStatus> status = StatusCodec.read(in); status.isPresent();
                    status = StatusCodec.read(in)) {
                try {
                    sink.accept(status.get());
                } catch (RuntimeException e) {
                    LOG.warn("Cannot act on status record {}", status.get(), e);
                }
            }
        } catch (IOException e) {
            if (!isClosed()) {
                LOG.warn("Dropped the status connection from {}: {}", connection.getRemoteSocketAddress(),
                        e.toString());
            }
        } finally {
            synchronized (this) {
                connections.remove(connection);
                notifyAll();
            }
        }
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    /**
     * Waits, at most TIMEOUT_MILLIS, until every record sent so far has reached the sink: called once the group's
     * processes have ended, so that a failing rank's report, sent just before its abort, is read before the runner
     * decides why the job ended. Returns whether it was.
     */
    public synchronized boolean awaitDrained(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        // A connection made before this call waits in the backlog until accept() has taken it. The first empty
        // accept counted after this point may have begun before that connection came; the second began after the
        // first ended, so it would have returned any connection still waiting: two mean there is none left.
        long emptyBefore = emptyAccepts;
        while ((emptyAccepts < emptyBefore + 2 || !connections.isEmpty()) && !closed) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }

    /** Stops listening and drops every connection. */
    @Override
    public void close() {
        Set<Socket> open;
        synchronized (this) {
            closed = true;
            open = Set.copyOf(connections);
            notifyAll();
        }
        closeQuietly(server);
        open.forEach(StatusReceiver::closeQuietly);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // Closing: nothing more to read from it.
        }
    }
}
