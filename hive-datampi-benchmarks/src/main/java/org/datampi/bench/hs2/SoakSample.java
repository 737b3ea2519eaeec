package org.datampi.bench.hs2;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * One sample of a soak, after QUERIES statements: HiveServer2's JVM, each rank of the group that runs the stages (GROUP
 * counts the groups seen so far: a new set of rank processes is a new group), and the files under the ranks' local
 * directory of this user.
 */
record SoakSample(int queries, int group, Optional<JvmSample> server, List<JvmSample> ranks, long localFiles) {
    SoakSample {
        requireNonNull(server, "server is null");
        ranks = List.copyOf(ranks);
    }

    /** The largest value of METRIC among the ranks (each rank is a JVM that must not grow); 0 without ranks. */
    long ranksMax(ToLongFunction<JvmSample> metric) {
        return ranks.stream().mapToLong(metric).max().orElse(0);
    }
}
