package org.datampi.transport;

import java.nio.ByteBuffer;

/** The shuffle's transport over MPI_COMM_WORLD: the JNI binding ({@link Mpi}) once MPI is initialized. */
public final class MpiTransport implements Transport {
    public static final MpiTransport INSTANCE = new MpiTransport();

    private MpiTransport() {
    }

    @Override
    public int anySource() {
        return Mpi.ANY_SOURCE;
    }

    @Override
    public int anyTag() {
        return Mpi.ANY_TAG;
    }

    @Override
    public Request isend(ByteBuffer buffer, int dest, int tag) {
        return Mpi.isend(buffer, dest, tag);
    }

    @Override
    public Request irecv(ByteBuffer buffer, int source, int tag) {
        return Mpi.irecv(buffer, source, tag);
    }

    @Override
    public boolean test(Request request) {
        return Mpi.test(request);
    }

    @Override
    public ProbeStatus iprobe(int source, int tag) {
        return Mpi.iprobe(source, tag);
    }
}
