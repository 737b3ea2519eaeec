package org.datampi.bench.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The MPICH family across hosts: Intel MPI (PyPI's impi-rt, MPICH's ABI, which MVAPICH2, the paper's MPI, shares)
 * runs the JNI binding built against Debian's MPICH unchanged, its ranks on three simulated hosts started by its own
 * Hydra through the hosts' launch agent and talking over libfabric's TCP provider. The 22 TPC-H queries over text
 * tables in HDFS must answer as DuckDB does over the same generated files.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterSimIntelMpiIT {
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
        cluster.assertTpchAnswersAsDuckDb("text");
    }
}
