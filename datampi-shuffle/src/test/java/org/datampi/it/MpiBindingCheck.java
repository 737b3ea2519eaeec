package org.datampi.it;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.datampi.transport.Mpi;
import org.datampi.transport.MpiException;
import org.datampi.transport.ProbeStatus;
import org.datampi.transport.Request;
import org.datampi.transport.ThreadLevel;

/**
 * A plain MPI program over the JNI binding, run by {@link MpiBindingIT} on 2 ranks with {@code mpidrun --plain-mpi}:
 * exercises every call and prints "binding ok" per rank; any mismatch throws, which fails the job.
 */
public final class MpiBindingCheck {
    private MpiBindingCheck() {
    }

    public static void main(String[] args) {
        check(Mpi.initThread(ThreadLevel.MULTIPLE) == ThreadLevel.MULTIPLE, "MPI_THREAD_MULTIPLE provided");
        int rank = Mpi.rank();
        int other = 1 - rank;
        check(Mpi.size() == 2, "2 ranks");
        check(Mpi.ANY_SOURCE != Mpi.ANY_TAG || Mpi.ANY_SOURCE < 0, "wildcards come from the implementation");

        ByteBuffer in = ByteBuffer.allocateDirect(8);
        ByteBuffer out = ByteBuffer.allocateDirect(8).putLong(0, rank * 100L + 7);
        List<Request> requests = new ArrayList<>(List.of(Mpi.irecv(in, other, 1), Mpi.isend(out, other, 1)));
        int first = Mpi.waitAny(requests);
        int second = Mpi.waitAny(requests);
        check(first != second && first >= 0 && second >= 0, "waitAny completes each request once");
        check(Mpi.waitAny(requests) == -1 && Mpi.testAny(requests) == -1, "nothing left to wait for");
        check(in.getLong(0) == other * 100L + 7, "the peer's long arrived");

        Request probed = Mpi.isend(ByteBuffer.allocateDirect(3).put(new byte[] {1, 2, 3}).flip(), other, 5);
        ProbeStatus status = Mpi.probe(Mpi.ANY_SOURCE, 5);
        check(status.source() == other && status.tag() == 5 && status.byteCount() == 3, "probe: " + status);
        ByteBuffer three = ByteBuffer.allocateDirect(3);
        Mpi.await(Mpi.irecv(three, status.source(), status.tag()));
        check(three.get(2) == 3, "probed message received");
        Mpi.await(probed);

        Mpi.barrier();
        check(Mpi.iprobe(Mpi.ANY_SOURCE, 99) == null, "iprobe finds nothing when nothing was sent");
        try {
            Mpi.isend(ByteBuffer.allocateDirect(1), Mpi.size() + 5, 1);
            throw new IllegalStateException("a send to a rank that does not exist must fail");
        } catch (MpiException e) {
            check(e.getMessage().startsWith("MPI_Isend failed"), "MPI error becomes an exception: " + e.getMessage());
        }
        try {
            Mpi.isend(ByteBuffer.allocate(1), other, 1);
            throw new IllegalStateException("a heap buffer must be refused");
        } catch (IllegalArgumentException e) {
            check(e.getMessage().contains("direct"), e.getMessage());
        }
        Mpi.barrier();
        System.out.println("binding ok rank=" + rank + " " + Mpi.libraryVersion().lines().findFirst().orElse(""));
        Mpi.finalizeMpi();
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException("binding check failed: " + what);
        }
    }
}
