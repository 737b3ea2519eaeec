package org.datampi.bench;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.datampi.runtime.ProcessMemory;
import org.datampi.transport.Mpi;
import org.datampi.transport.Request;
import org.datampi.transport.ThreadLevel;

/**
 * The raw-MPI reference of bin/shuffle-bench, run with {@code mpidrun --plain-mpi}: every rank sends its share of
 * TOTAL_BYTES to every rank (itself included) in BLOCK_BYTES messages through the JNI binding, with a window of
 * outstanding requests, and no serialization, sorting or buffering. What the network part of a shuffle costs at best.
 * Arguments: {@code TOTAL_BYTES BLOCK_BYTES}.
 */
public final class RawAllToAll {
    private static final int WINDOW = 8;
    private static final int TAG = 9;

    private RawAllToAll() {
    }

    public static void main(String[] args) {
        long totalBytes = Long.parseLong(args[0]);
        int blockBytes = Integer.parseInt(args[1]);
        Mpi.initThread(ThreadLevel.MULTIPLE);
        int rank = Mpi.rank();
        int size = Mpi.size();
        long blocksPerPeer = Math.max(1, totalBytes / size / size / blockBytes);
        ByteBuffer sendBuffer = ByteBuffer.allocateDirect(blockBytes);
        List<ByteBuffer> receiveBuffers = new ArrayList<>();
        for (int i = 0; i < WINDOW * size; i++) {
            receiveBuffers.add(ByteBuffer.allocateDirect(blockBytes));
        }
        Mpi.barrier();
        long start = System.nanoTime();
        for (long round = 0; round < blocksPerPeer; round += WINDOW) {
            int blocks = (int) Math.min(WINDOW, blocksPerPeer - round);
            List<Request> requests = new ArrayList<>();
            for (int b = 0; b < blocks; b++) {
                for (int peer = 0; peer < size; peer++) {
                    requests.add(Mpi.irecv(receiveBuffers.get(b * size + peer).clear(), peer, TAG));
                }
            }
            for (int b = 0; b < blocks; b++) {
                for (int i = 0; i < size; i++) {
                    int peer = (rank + i) % size;
                    requests.add(Mpi.isend(sendBuffer.duplicate().clear(), peer, TAG));
                }
            }
            for (Request request : requests) {
                Mpi.await(request);
            }
        }
        Mpi.barrier();
        long nanos = System.nanoTime() - start;
        long sent = blocksPerPeer * size * blockBytes;
        System.out.println("BENCH raw rank=" + rank + " nanos=" + nanos + " bytes=" + sent + " peakRss="
                + ProcessMemory.peakResidentBytes());
        Mpi.finalizeMpi();
    }
}
