package org.datampi.transport;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;

/**
 * A pending non-blocking send or receive. It keeps its buffer reachable until MPI is done with it: the garbage
 * collector must not free memory that MPI still reads or writes.
 */
public final class Request {
    private final long handle;
    private final ByteBuffer buffer;
    private boolean complete;

    Request(long handle, ByteBuffer buffer) {
        this.handle = handle;
        this.buffer = requireNonNull(buffer, "buffer is null");
    }

    long handle() {
        return handle;
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    public boolean isComplete() {
        return complete;
    }

    void markComplete() {
        complete = true;
    }
}
