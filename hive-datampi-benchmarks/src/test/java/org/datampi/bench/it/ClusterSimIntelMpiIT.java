package org.datampi.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.datampi.bench.it.SimulatedCluster.Result;
import org.datampi.bench.it.SimulatedCluster.Script;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The MPICH family across hosts: Intel MPI (PyPI's impi-rt, MPICH's ABI, which MVAPICH2, the paper's MPI, shares)
 * runs the JNI binding built against Debian's MPICH unchanged, its ranks on three simulated hosts started by its own
 * Hydra and talking over libfabric's TCP provider: through the hosts' launch agent with a hostfile, and through Slurm
 * (Hydra's Slurm launcher, srun) inside an allocation. TPC-H queries over text tables in HDFS must answer as DuckDB
 * does over the same generated files: seven whose plans cover the DAG shape's edges and operators (aggregation and
 * ORDER BY, a chain of joins with LIMIT, a six-way join, an outer join under a nested aggregation, an IN subquery over
 * a large GROUP BY, EXISTS and NOT EXISTS, a scalar subquery); TpchAnswersIT runs all 22 on one machine, and
 * bin/cluster-sim up --mpi impi with bin/cluster-sim run tpch-run all 22 here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterSimIntelMpiIT {
    /** TPC-H queries whose plans cover the DAG shape's edges and Hive's operators between them (class doc). */
    private static final List<Integer> QUERIES = List.of(1, 3, 9, 13, 18, 21, 22);

    private SimulatedCluster cluster;

    @BeforeAll
    void up() throws Exception {
        cluster = SimulatedCluster.up(3, "impi", SimulatedCluster.HOME.resolve(
                "hive-datampi-benchmarks/target/it-cluster-sim-impi"), "--slurm");
    }

    @AfterAll
    void down() throws Exception {
        cluster.close();
    }

    @Test
    void tpchAnswersAcrossHostsOnIntelMpiEqualDuckDb() throws Exception {
        cluster.assertTpchAnswersAsDuckDb("text", QUERIES);
    }

    /**
     * {@code salloc -N 3 bin/hive-datampi -f FILE} with Intel MPI as the cluster's MPI: Hydra's Slurm launcher starts
     * a rank on each node of the allocation (each other node's slurmd launched a step of the job: Hydra's proxies, by
     * srun), with no hostfile and no launch agent, and a GROUP BY over generated rows gives Hive on MR's.
     */
    @Test
    void inASlurmAllocationHydraStartsTheRanksThroughSrun() throws Exception {
        List<String> queries = List.of("SELECT pmod(n, 7), count(*), sum(n) FROM (SELECT posexplode(split(space(4999), "
                + "' ')) AS (n, s)) t GROUP BY pmod(n, 7)");
        Script slurm = cluster.salloc("slurm-salloc", List.of("-N", "3", "--time=10"), Map.of(), queries);
        try {
            assertEquals(0, slurm.exit(), "the query runs inside the allocation:\n" + slurm.console());
            Matcher job = Pattern.compile("salloc: Granted job allocation (\\d+)").matcher(slurm.console());
            assertTrue(job.find(), "salloc granted an allocation:\n" + slurm.console());
            assertTrue(slurm.console().contains("(ranks 0 on dmp1; 1 on dmp2; 2 on dmp3)"), "a rank on each node:\n"
                    + slurm.console());
            for (int host = 2; host <= 3; host++) {
                Result launched = cluster.exec("slurm-launch-dmp" + host, "dmp" + host, "grep", "-c",
                        "launch task StepId=" + job.group(1) + "\\.", "logs/slurmd.log");
                assertEquals(0, launched.exit(), "dmp" + host + "'s slurmd launched a step of job " + job.group(1)
                        + ":\n" + launched.output());
            }
            Script mr = cluster.hiveScript("slurm-mr", "mr", Map.of(), Map.of(), queries);
            assertEquals(0, mr.exit(), "the query on MR:\n" + SimulatedCluster.tail(mr.console()));
            assertFalse(mr.rows().isBlank(), "MR returned rows");
            assertEquals(mr.rows().lines().sorted().toList(), slurm.rows().lines().sorted().toList(),
                    "datampi's rows in the allocation equal MR's");
        } finally {
            cluster.exec("scancel-all", "dmp1", "scancel", "--user=root");
        }
    }
}
