package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
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

    /**
     * A task's share of the job's memory: --mem-per-cpu times the task's CPUs, or --mem shared by the most tasks a node
     * runs; none when the job asked for no memory, or for a node's whole memory (--mem=0).
     */
    @Test
    void aTaskGetsItsShareOfTheJobsMemory() {
        Map<String, String> job = Map.of("SLURM_JOB_ID", "12", "SLURM_JOB_NODELIST", "n[07-08],gpu1",
                "SLURM_TASKS_PER_NODE", "4(x2),1");
        assertEquals(Optional.empty(), SlurmAllocation.of(job, SCONTROL).orElseThrow().memoryPerTask());
        SlurmAllocation.TaskMemory perCpu = memory(job, Map.of("SLURM_MEM_PER_CPU", "1500", "SLURM_CPUS_PER_TASK",
                "2"));
        assertEquals(3000, perCpu.megabytes());
        assertEquals(2250, perCpu.largestHeapMegabytes());
        assertEquals("the 3000 MB per task of Slurm job 12 (SLURM_MEM_PER_CPU=1500 x 2 CPUs per task)",
                perCpu.toString());
        assertEquals(1024, memory(job, Map.of("SLURM_MEM_PER_CPU", "1024")).megabytes(), "one CPU per task");
        // Whole nodes (--exclusive; -N without -n): every CPU of a node is the job's, shared by the node's tasks;
        // the node whose tasks get least counts.
        SlurmAllocation.TaskMemory wholeNodes = memory(job, Map.of("SLURM_MEM_PER_CPU", "600",
                "SLURM_JOB_CPUS_PER_NODE", "32(x2),8"));
        assertEquals(4800, wholeNodes.megabytes());
        assertEquals("the 4800 MB per task of Slurm job 12 (SLURM_MEM_PER_CPU=600 x 8 CPUs per task)",
                wholeNodes.toString());
        assertEquals("the 1050 MB per task of Slurm job 12 (SLURM_MEM_PER_CPU=600 x 7 CPUs of a node over its 4 "
                + "tasks)", memory(job, Map.of("SLURM_MEM_PER_CPU", "600", "SLURM_JOB_CPUS_PER_NODE", "7(x2),4"))
                        .toString());
        SlurmAllocation.TaskMemory perNode = memory(job, Map.of("SLURM_MEM_PER_NODE", "8000"));
        assertEquals(2000, perNode.megabytes(), "the node with four tasks shares its memory four ways");
        assertEquals("the 2000 MB per task of Slurm job 12 (SLURM_MEM_PER_NODE=8000 over 4 tasks of a node)",
                perNode.toString());
        assertEquals(Optional.empty(), SlurmAllocation.of(with(job, Map.of("SLURM_MEM_PER_NODE", "0")), SCONTROL)
                .orElseThrow().memoryPerTask(), "--mem=0: all of a node's memory, whatever that is");
        IllegalArgumentException form = assertThrows(IllegalArgumentException.class,
                () -> SlurmAllocation.of(with(job, Map.of("SLURM_MEM_PER_CPU", "2G")), SCONTROL));
        assertEquals("Slurm job 12: SLURM_MEM_PER_CPU='2G' is not a whole number", form.getMessage());
    }

    private static SlurmAllocation.TaskMemory memory(Map<String, String> job, Map<String, String> memory) {
        return SlurmAllocation.of(with(job, memory), SCONTROL).orElseThrow().memoryPerTask().orElseThrow();
    }

    private static Map<String, String> with(Map<String, String> job, Map<String, String> more) {
        Map<String, String> environment = new HashMap<>(job);
        environment.putAll(more);
        return environment;
    }
}
