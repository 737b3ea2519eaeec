package org.datampi.bench;

import java.util.Arrays;
import java.util.Map;

import org.datampi.examples.GeneratedRecords;
import org.datampi.mpid.MPI_D;
import org.datampi.mpid.MPI_D_Exception;
import org.datampi.mpid.MpidConf;
import org.datampi.runtime.ProcessMemory;

/**
 * The datampi side of bin/shuffle-bench: O tasks send {@link GeneratedRecords} as raw byte pairs; A tasks read
 * them through the sorted Recv() and print what they got. Arguments: {@code TOTAL_PAIRS SEED [VALUE_BYTES]} (values of
 * GeneratedRecords.VALUE_BYTES unless given: larger values make a shuffle bound by the network rather than the CPU).
 */
public final class ShuffleBenchJob {
    private ShuffleBenchJob() {
    }

    public static void main(String[] args) throws MPI_D_Exception {
        long totalPairs = Long.parseLong(args[0]);
        long seed = Long.parseLong(args[1]);
        int valueBytes = args.length > 2 ? Integer.parseInt(args[2]) : GeneratedRecords.VALUE_BYTES;
        MPI_D.Init(args, MPI_D.Mode.Common, Map.of(MpidConf.KEY_CLASS, MpidConf.BYTES,
                MpidConf.VALUE_CLASS, MpidConf.BYTES));
        if (MPI_D.COMM_BIPARTITE_O != null) {
            int task = MPI_D.Comm_rank(MPI_D.COMM_BIPARTITE_O);
            int tasks = MPI_D.Comm_size(MPI_D.COMM_BIPARTITE_O);
            System.out.println("BENCH o-start task=" + task + " epochMillis=" + System.currentTimeMillis());
            GeneratedRecords records = new GeneratedRecords(seed, task);
            for (long i = 0, n = share(totalPairs, tasks, task); i < n; i++) {
                int length = records.nextKey();
                byte[] key = Arrays.copyOf(records.key(), length);
                MPI_D.Send(key, GeneratedRecords.valueFor(key, length, valueBytes));
            }
            System.out.println("BENCH o-end task=" + task + " epochMillis=" + System.currentTimeMillis());
        } else if (MPI_D.COMM_BIPARTITE_A != null) {
            System.out.println("BENCH a-start task=" + MPI_D.Comm_rank(MPI_D.COMM_BIPARTITE_A) + " epochMillis="
                    + System.currentTimeMillis());
            PairChecksum checksum = new PairChecksum();
            for (Object[] pair = MPI_D.Recv(); pair != null; pair = MPI_D.Recv()) {
                byte[] key = (byte[]) pair[0];
                byte[] value = (byte[]) pair[1];
                checksum.add(key, key.length, value, value.length);
            }
            System.out.println("BENCH a-end task=" + MPI_D.Comm_rank(MPI_D.COMM_BIPARTITE_A) + " epochMillis="
                    + System.currentTimeMillis() + " pairs=" + checksum.pairs() + " bytes=" + checksum.bytes()
                    + " hashSum=" + checksum.hashSum() + " peakRss=" + ProcessMemory.peakResidentBytes());
        }
        MPI_D.Finalize();
    }

    /** The pairs task generates when total pairs are split as evenly as possible over tasks. */
    static long share(long total, int tasks, int task) {
        return total / tasks + (task < total % tasks ? 1 : 0);
    }
}
