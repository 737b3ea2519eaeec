package org.datampi.it;

import java.util.Map;

import org.datampi.mpid.MPI_D;
import org.datampi.mpid.MPI_D_Exception;
import org.datampi.mpid.MpidConf;

/**
 * A job that fails on purpose, launched by {@link FailureIT}: every O task sends pairs (enough to spill under a
 * small memory share), then the chosen task fails as the arguments say.
 *
 * <p>Arguments: {@code throw-in-o|throw-in-a|halt-in-o TASK PAIRS_PER_O_TASK}.
 */
public final class FaultInjectionJob {
    private FaultInjectionJob() {
    }

    public static void main(String[] args) throws MPI_D_Exception {
        String fault = args[0];
        int faultyTask = Integer.parseInt(args[1]);
        int pairs = Integer.parseInt(args[2]);
        MPI_D.Init(args, MPI_D.Mode.Common, Map.of(MpidConf.KEY_CLASS, MpidConf.BYTES));
        if (MPI_D.COMM_BIPARTITE_O != null) {
            int task = MPI_D.Comm_rank(MPI_D.COMM_BIPARTITE_O);
            byte[] value = new byte[20];
            for (int i = 0; i < pairs; i++) {
                MPI_D.Send(("key-" + task + "-" + i).getBytes(), value);
            }
            if (task == faultyTask && fault.equals("throw-in-o")) {
                throw new IllegalStateException("injected failure in O task " + task);
            }
            if (task == faultyTask && fault.equals("halt-in-o")) {
                Runtime.getRuntime().halt(3);
            }
        } else if (MPI_D.COMM_BIPARTITE_A != null) {
            int task = MPI_D.Comm_rank(MPI_D.COMM_BIPARTITE_A);
            while (MPI_D.Recv() != null) {
                if (task == faultyTask && fault.equals("throw-in-a")) {
                    throw new IllegalArgumentException("injected failure in A task " + task);
                }
            }
        }
        MPI_D.Finalize();
    }
}
