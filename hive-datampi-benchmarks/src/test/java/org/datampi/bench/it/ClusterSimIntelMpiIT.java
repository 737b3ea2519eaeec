package org.datampi.bench.it;

import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The MPICH family across hosts: Intel MPI (PyPI's impi-rt, MPICH's ABI, which MVAPICH2, the paper's MPI, shares)
 * runs the JNI binding built against Debian's MPICH unchanged, its ranks on three simulated hosts started by its own
 * Hydra through the hosts' launch agent and talking over libfabric's TCP provider. TPC-H queries over text tables in
 * HDFS must answer as DuckDB does over the same generated files: seven whose plans cover the DAG shape's edges and
 * operators (aggregation and ORDER BY, a chain of joins with LIMIT, a six-way join, an outer join under a nested
 * aggregation, an IN subquery over a large GROUP BY, EXISTS and NOT EXISTS, a scalar subquery); ClusterSimIT runs all
 * 22 across hosts on Open MPI, and bin/cluster-sim up --mpi impi with bin/cluster-sim run tpch-run all 22 here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterSimIntelMpiIT {
    /** TPC-H queries whose plans cover the DAG shape's edges and Hive's operators between them (class doc). */
    private static final List<Integer> QUERIES = List.of(1, 3, 9, 13, 18, 21, 22);

    private SimulatedCluster cluster;

    @BeforeAll
    void up() throws Exception {
        cluster = SimulatedCluster.up(3, "impi", SimulatedCluster.HOME.resolve(
                "hive-datampi-benchmarks/target/it-cluster-sim-impi"));
    }

    @AfterAll
    void down() throws Exception {
        cluster.close();
    }

    @Test
    void tpchAnswersAcrossHostsOnIntelMpiEqualDuckDb() throws Exception {
        cluster.assertTpchAnswersAsDuckDb("text", QUERIES);
    }
}
