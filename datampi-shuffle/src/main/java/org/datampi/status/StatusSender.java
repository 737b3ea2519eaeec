package org.datampi.status;

import static java.util.Objects.requireNonNull;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.Optional;

/**
 * A rank's end of the status channel ({@link RankStatus}): a TCP connection to the job runner's
 * {@link StatusReceiver}, whose address and token the launcher puts in the ranks' environment
 * ({@value #ADDRESS_VARIABLE}, {@value #TOKEN_VARIABLE}). Rank 0 connects when the group is up and keeps the
 * connection for the group's life; another rank connects only to report its failure. Without the variables (mpidrun
 * run by hand) there is no job runner to tell, and records go nowhere: the console lines are the report.
 *
 * <p>Thread-safe: rank 0's main thread, its progress thread and a failing thread send.
 */
public final class StatusSender implements AutoCloseable {
    /** The job runner's {@code HOST:PORT}. */
    public static final String ADDRESS_VARIABLE = "DATAMPI_STATUS";
    /** The group's token, which the job runner checks on every connection. */
    public static final String TOKEN_VARIABLE = "DATAMPI_STATUS_TOKEN";
    /**
     * How long a connection may take: a failing rank waits this long at most before MPI_Abort when the job runner
     * cannot be reached.
     */
    private static final int CONNECT_TIMEOUT_MILLIS = 3000;

    private final Optional<String> host;
    private final int port;
    private final String token;
    private Socket socket;
    private DataOutputStream out;

    private StatusSender(Optional<String> host, int port, String token) {
        this.host = requireNonNull(host, "host is null");
        this.port = port;
        this.token = requireNonNull(token, "token is null");
    }

    /** The sender the launcher's variables describe; one that sends nothing without them. */
    public static StatusSender fromEnvironment(Map<String, String> environment) {
        String address = environment.getOrDefault(ADDRESS_VARIABLE, "").trim();
        if (address.isEmpty()) {
            return new StatusSender(Optional.empty(), 0, "");
        }
        int colon = address.lastIndexOf(':');
        int port = -1;
        try {
            port = colon > 0 ? Integer.parseInt(address.substring(colon + 1)) : -1;
        } catch (NumberFormatException e) {
            // reported below
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("Invalid value '" + address + "' for " + ADDRESS_VARIABLE
                    + ": expected HOST:PORT");
        }
        String token = environment.getOrDefault(TOKEN_VARIABLE, "");
        if (token.isEmpty()) {
            throw new IllegalArgumentException(ADDRESS_VARIABLE + " is set but " + TOKEN_VARIABLE + " is not");
        }
        return new StatusSender(Optional.of(address.substring(0, colon)), port, token);
    }

    /** Whether a job runner listens. */
    public boolean hasReceiver() {
        return host.isPresent();
    }

    /**
     * Sends the record, connecting first if needed. Fails, naming the job runner's address, when it cannot be
     * reached or is gone: ranks whose runner is gone have no one to work for.
     */
    public synchronized void send(RankStatus status) {
        if (host.isEmpty()) {
            return;
        }
        try {
            if (out == null) {
                connect();
            }
            StatusCodec.write(out, status);
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("Lost the status channel to the job runner at " + host.get() + ":" + port
                    + ": " + e, e);
        }
    }

    private void connect() throws IOException {
        Socket connection = new Socket();
        try {
            connection.setTcpNoDelay(true);
            connection.connect(new InetSocketAddress(host.orElseThrow(), port), CONNECT_TIMEOUT_MILLIS);
            DataOutputStream stream = new DataOutputStream(new BufferedOutputStream(connection.getOutputStream()));
            StatusCodec.writeGreeting(stream, token);
            socket = connection;
            out = stream;
        } catch (IOException e) {
            connection.close();
            throw e;
        }
    }

    /** Ends the connection, if any: the job runner reads to its end. */
    @Override
    public synchronized void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // Nothing more to send on it.
            }
        }
        socket = null;
        out = null;
    }
}
