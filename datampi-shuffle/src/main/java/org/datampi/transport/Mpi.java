package org.datampi.transport;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The JNI binding to MPI on MPI_COMM_WORLD: init with a thread level, rank and size, non-blocking point-to-point
 * on direct buffers, non-blocking broadcast, test/wait/wait-any, probe, barrier, abort and finalize. Failing calls throw
 * {@link MpiException}. Constants come from the native library of the implementation in use.
 */
public final class Mpi {
    private static final int[] CONSTANTS;

    /** The implementation's MPI_ANY_SOURCE (it differs between Open MPI and MPICH). */
    public static final int ANY_SOURCE;
    /** The implementation's MPI_ANY_TAG. */
    public static final int ANY_TAG;

    static {
        NativeLibraryLoader.load(MpiImplementation.current());
        CONSTANTS = nativeConstants();
        ANY_SOURCE = CONSTANTS[0];
        ANY_TAG = CONSTANTS[1];
    }

    private Mpi() {
    }

    /** Calls MPI_Init_thread and returns the thread level the implementation provides. */
    public static ThreadLevel initThread(ThreadLevel required) {
        int provided = nativeInitThread(CONSTANTS[2 + required.ordinal()]);
        for (ThreadLevel level : ThreadLevel.values()) {
            if (CONSTANTS[2 + level.ordinal()] == provided) {
                return level;
            }
        }
        throw new MpiException("MPI_Init_thread returned an unknown thread level " + provided);
    }

    public static int rank() {
        return nativeRank();
    }

    public static int size() {
        return nativeSize();
    }

    public static String libraryVersion() {
        return nativeLibraryVersion().trim();
    }

    /** Starts sending buffer[position, limit) to dest with tag. */
    public static Request isend(ByteBuffer buffer, int dest, int tag) {
        checkDirect(buffer);
        return new Request(nativeIsend(buffer, buffer.position(), buffer.remaining(), dest, tag), buffer);
    }

    /** Starts receiving into buffer[position, limit) from source with tag. */
    public static Request irecv(ByteBuffer buffer, int source, int tag) {
        checkDirect(buffer);
        return new Request(nativeIrecv(buffer, buffer.position(), buffer.remaining(), source, tag), buffer);
    }

    /**
     * Starts broadcasting buffer[position, limit) from root to every rank; every rank calls it with a range of the
     * same length, in the same order as its other collectives.
     */
    public static Request ibcast(ByteBuffer buffer, int root) {
        checkDirect(buffer);
        return new Request(nativeIbcast(buffer, buffer.position(), buffer.remaining(), root), buffer);
    }

    /** Returns true once the request has completed; a completed request is never tested again. */
    public static boolean test(Request request) {
        if (request.isComplete()) {
            return true;
        }
        if (nativeTest(request.handle())) {
            request.markComplete();
        }
        return request.isComplete();
    }

    public static void await(Request request) {
        if (!request.isComplete()) {
            nativeWait(request.handle());
            request.markComplete();
        }
    }

    /** Blocks until one of the incomplete requests completes; returns its index in the list, or -1 if all were. */
    public static int waitAny(List<Request> requests) {
        return anyOf(requests, true);
    }

    /** Returns the index of a request that has now completed, or -1 when none has. */
    public static int testAny(List<Request> requests) {
        return anyOf(requests, false);
    }

    private static int anyOf(List<Request> requests, boolean block) {
        int[] positions = new int[requests.size()];
        long[] handles = new long[requests.size()];
        int count = 0;
        for (int i = 0; i < requests.size(); i++) {
            Request request = requests.get(i);
            if (!request.isComplete()) {
                positions[count] = i;
                handles[count++] = request.handle();
            }
        }
        if (count == 0) {
            return -1;
        }
        int index = block ? nativeWaitAny(handles, count) : nativeTestAny(handles, count);
        if (index < 0) {
            return -1;
        }
        requests.get(positions[index]).markComplete();
        return positions[index];
    }

    /** Returns what the next matching message is without receiving it, or null when none has arrived. */
    public static ProbeStatus iprobe(int source, int tag) {
        int[] status = new int[3];
        return nativeIprobe(source, tag, status) ? new ProbeStatus(status[0], status[1], status[2]) : null;
    }

    public static ProbeStatus probe(int source, int tag) {
        int[] status = new int[3];
        nativeProbe(source, tag, status);
        return new ProbeStatus(status[0], status[1], status[2]);
    }

    public static void barrier() {
        nativeBarrier();
    }

    /** Ends every process of the job with the given exit code; does not return. */
    public static void abort(int exitCode) {
        nativeAbort(exitCode);
    }

    public static void finalizeMpi() {
        nativeFinalize();
    }

    private static void checkDirect(ByteBuffer buffer) {
        requireNonNull(buffer, "buffer is null");
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("MPI buffers must be direct ByteBuffers");
        }
    }

    private static native int[] nativeConstants();

    private static native int nativeInitThread(int required);

    private static native int nativeRank();

    private static native int nativeSize();

    private static native String nativeLibraryVersion();

    private static native long nativeIsend(ByteBuffer buffer, int offset, int length, int dest, int tag);

    private static native long nativeIrecv(ByteBuffer buffer, int offset, int length, int source, int tag);

    private static native long nativeIbcast(ByteBuffer buffer, int offset, int length, int root);

    private static native boolean nativeTest(long handle);

    private static native void nativeWait(long handle);

    private static native int nativeWaitAny(long[] handles, int count);

    private static native int nativeTestAny(long[] handles, int count);

    private static native boolean nativeIprobe(int source, int tag, int[] status);

    private static native void nativeProbe(int source, int tag, int[] status);

    private static native void nativeBarrier();

    private static native void nativeAbort(int exitCode);

    private static native void nativeFinalize();
}
