package org.datampi.runtime;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.datampi.shuffle.engine.MessageTag;
import org.datampi.transport.Mpi;
import org.datampi.transport.ProbeStatus;

/**
 * Which host each rank of a process group runs on: when the group starts, every rank sends its host's name to rank 0,
 * which prints one line on stderr for people ({@code datampi: ranks 0-1 on dmp1; 2-3 on dmp2}) and passes the list to
 * its O-task scheduler and to the job runner ({@link org.datampi.status.RankStatus.GroupUp}). Asked of the ranks
 * themselves rather than worked out from the hostfile, because the MPI implementation and the admin's mapping options
 * decide where each rank goes.
 *
 * <p>It runs once per process group, before any shuffle engine, on its own tag. Rank 0 waits for every rank's
 * message: a rank that never starts ends the group through mpirun (a rank that exits) or the launcher's start
 * deadline ({@code hive.datampi.start.timeout}).
 */
public final class RankHosts {
    private static final String LINE = "datampi: ranks ";
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private RankHosts() {
    }

    /**
     * Every rank calls it once, after MPI_Init: rank 0 gathers the hosts, prints the line and returns each rank's host
     * (its O-task scheduler places tasks by them); the other ranks return empty.
     */
    static Optional<List<String>> gather(int rank, int size, String host) {
        if (rank != 0) {
            byte[] bytes = host.getBytes(StandardCharsets.UTF_8);
            Mpi.await(Mpi.isend(ByteBuffer.allocateDirect(bytes.length).put(bytes).flip(), 0, MessageTag.RANK_HOST));
            return Optional.empty();
        }
        String[] hosts = new String[size];
        hosts[0] = host;
        for (int received = 1; received < size; received++) {
            ProbeStatus status = Mpi.iprobe(Mpi.ANY_SOURCE, MessageTag.RANK_HOST);
            while (status == null) {
                LockSupport.parkNanos(POLL_NANOS);
                status = Mpi.iprobe(Mpi.ANY_SOURCE, MessageTag.RANK_HOST);
            }
            ByteBuffer buffer = ByteBuffer.allocateDirect(Math.max(1, status.byteCount()));
            Mpi.await(Mpi.irecv(buffer, status.source(), MessageTag.RANK_HOST));
            byte[] bytes = new byte[status.byteCount()];
            buffer.position(0).limit(status.byteCount());
            buffer.get(bytes);
            hosts[status.source()] = new String(bytes, StandardCharsets.UTF_8);
        }
        System.err.println(LINE + describe(Arrays.asList(hosts)));
        System.err.flush();
        return Optional.of(List.of(hosts));
    }

    /**
     * The ranks of each host, hosts in the order of their first rank, consecutive ranks as ranges:
     * {@code 0-1 on dmp1; 2-3 on dmp2}, or {@code 0,2 on dmp1; 1,3 on dmp2} when ranks go round the hosts.
     */
    public static String describe(List<String> hostOfRank) {
        Map<String, List<Integer>> ranks = new LinkedHashMap<>();
        for (int rank = 0; rank < hostOfRank.size(); rank++) {
            ranks.computeIfAbsent(hostOfRank.get(rank), host -> new ArrayList<>()).add(rank);
        }
        List<String> parts = new ArrayList<>();
        ranks.forEach((host, list) -> parts.add(ranges(list) + " on " + host));
        return String.join("; ", parts);
    }

    private static String ranges(List<Integer> ranks) {
        List<String> ranges = new ArrayList<>();
        int first = ranks.get(0);
        int last = first;
        for (int rank : ranks.subList(1, ranks.size())) {
            if (rank != last + 1) {
                ranges.add(first == last ? String.valueOf(first) : first + "-" + last);
                first = rank;
            }
            last = rank;
        }
        ranges.add(first == last ? String.valueOf(first) : first + "-" + last);
        return String.join(",", ranges);
    }
}
