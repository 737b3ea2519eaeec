package org.datampi.transport;

import java.nio.ByteBuffer;

/**
 * The non-blocking point-to-point calls the shuffle engine makes, between it and MPI: {@link MpiTransport} is the JNI
 * binding on MPI_COMM_WORLD; unit tests run the engine over an in-memory transport with faults injected (a lost
 * message, a slow peer, a peer that dies). MPI's semantics hold for every implementation: messages from one source
 * with one tag are matched in the order they were sent (a probe for one tag may overtake another tag's messages), and
 * a buffer stays untouched by the caller until its request has completed.
 */
public interface Transport {
    /** The wildcard source of {@link #iprobe}. */
    int anySource();

    /** The wildcard tag of {@link #iprobe}. */
    int anyTag();

    /** Starts sending buffer[position, limit) to dest with tag. */
    Request isend(ByteBuffer buffer, int dest, int tag);

    /** Starts receiving into buffer[position, limit) from source with tag. */
    Request irecv(ByteBuffer buffer, int source, int tag);

    /** Whether the request has completed; a completed request stays so. */
    boolean test(Request request);

    /** What the next matching message is without receiving it, or null when none has arrived. */
    ProbeStatus iprobe(int source, int tag);
}
