package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

class SlurmAllocationTest {
    /** Slurm's expansion of a node list, as scontrol show hostnames gives it for the lists below. */
    private static final Function<String, List<String>> SCONTROL = nodeList -> switch (nodeList) {
        case "dmp[1-3]" -> List.of("dmp1", "dmp2", "dmp3");
        case "n[07-08],gpu1" -> List.of("n07", "n08", "gpu1");
        default -> throw new AssertionError("unexpected node list " + nodeList);
    };

    @Test
    void outsideAJobThereIsNone() {
        assertEquals(Optional.empty(), SlurmAllocation.of(Map.of("HOME", "/root"), SCONTROL));
    }

    /** salloc -N 3 --ntasks-per-node=2 and a heterogeneous one: each node with its tasks, in Slurm's order. */
    @Test
    void nodesGetTheirTasks() {
        SlurmAllocation even = SlurmAllocation.of(Map.of("SLURM_JOB_ID", "12", "SLURM_JOB_NODELIST", "dmp[1-3]",
                "SLURM_TASKS_PER_NODE", "2(x3)"), SCONTROL).orElseThrow();
        assertEquals(List.of(new Hostfile.Host("dmp1", 2), new Hostfile.Host("dmp2", 2), new Hostfile.Host("dmp3", 2)),
                even.nodes());
        assertEquals(6, even.tasks());
        SlurmAllocation uneven = SlurmAllocation.of(Map.of("SLURM_JOB_ID", "13", "SLURM_JOB_NODELIST",
                "n[07-08],gpu1", "SLURM_TASKS_PER_NODE", "4(x2),1"), SCONTROL).orElseThrow();
        assertEquals(List.of(new Hostfile.Host("n07", 4), new Hostfile.Host("n08", 4), new Hostfile.Host("gpu1", 1)),
                uneven.nodes());
        assertEquals("13", uneven.jobId());
    }

    @Test
    void variablesThatDoNotAddUpAreNamed() {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> SlurmAllocation.of(
                Map.of("SLURM_JOB_ID", "12", "SLURM_JOB_NODELIST", "dmp[1-3]"), SCONTROL));
        assertEquals("Slurm job 12 (SLURM_JOB_ID) but SLURM_TASKS_PER_NODE is not set: run inside the job's salloc or "
                + "sbatch script, which set it", missing.getMessage());
        IllegalArgumentException counts = assertThrows(IllegalArgumentException.class, () -> SlurmAllocation.of(
                Map.of("SLURM_JOB_ID", "12", "SLURM_JOB_NODELIST", "dmp[1-3]", "SLURM_TASKS_PER_NODE", "2(x2)"),
                SCONTROL));
        assertEquals("Slurm job 12: SLURM_JOB_NODELIST=dmp[1-3] names 3 nodes but SLURM_TASKS_PER_NODE=2(x2) gives "
                + "tasks for 2", counts.getMessage());
        IllegalArgumentException form = assertThrows(IllegalArgumentException.class,
                () -> SlurmAllocation.tasksPerNode("2(x3),many"));
        assertTrue(form.getMessage().startsWith("SLURM_TASKS_PER_NODE='2(x3),many' is not Slurm's form"),
                form.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SlurmAllocation.tasksPerNode("0(x3)"));
    }
}
