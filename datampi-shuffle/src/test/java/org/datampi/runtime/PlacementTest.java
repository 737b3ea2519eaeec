package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlacementTest {
    private static final Map<String, String> IN_JOB = Map.of("SLURM_JOB_ID", "12", "SLURM_JOB_NODELIST", "dmp[1-3]",
            "SLURM_TASKS_PER_NODE", "1(x3)");
    private static final Function<String, List<String>> SCONTROL = nodeList -> List.of("dmp1", "dmp2", "dmp3");

    @TempDir
    Path dir;

    /** A hostfile first, even inside an allocation; then the allocation; then this machine. */
    @Test
    void aHostfileThenTheAllocationThenThisMachine() throws Exception {
        Path file = Files.writeString(dir.resolve("hosts"), "dmp1 slots=2\ndmp2:3\ndmp1\n");
        Placement hostfile = Placement.of(file.toString(), IN_JOB, SCONTROL);
        assertInstanceOf(Placement.OnHostfile.class, hostfile);
        assertEquals(6, hostfile.slots());
        assertEquals(2, hostfile.hosts());
        assertEquals("the 6 slots of the hostfile " + file, hostfile.describe());
        assertTrue(hostfile.acrossHosts());

        Placement slurm = Placement.of(" ", IN_JOB, SCONTROL);
        assertInstanceOf(Placement.InSlurmAllocation.class, slurm);
        assertEquals(3, slurm.slots());
        assertEquals(3, slurm.hosts());
        assertEquals("the 3 tasks of Slurm job 12 (3 nodes dmp[1-3]; more with salloc/sbatch --ntasks-per-node or -n)",
                slurm.describe());
        assertTrue(slurm.acrossHosts());

        Placement machine = Placement.of(null, Map.of(), SCONTROL);
        assertEquals(new Placement.ThisMachine(Runtime.getRuntime().availableProcessors()), machine);
        assertFalse(machine.acrossHosts());
        assertEquals("this machine's " + machine.slots() + " cores", machine.describe());
    }

    /**
     * bin/mpidrun's view: slots, distinct hosts and whether ranks go across hosts, then where they are; Hydra's form of
     * a hostfile where asked.
     */
    @Test
    void mpidrunGetsSlotsHostsAndHydrasForm() throws Exception {
        Path file = Files.writeString(dir.resolve("hosts"), "dmp1 slots=2\ndmp2:3\ndmp1\n");
        Path mpich = dir.resolve("mpich");
        Process main = java(file.toString(), mpich.toString());

        assertEquals(0, main.waitFor(), new String(main.getErrorStream().readAllBytes()));
        assertEquals(List.of("6 2 true", "the 6 slots of the hostfile " + file),
                new String(main.getInputStream().readAllBytes()).strip().lines().toList());
        assertEquals(List.of("dmp1:2", "dmp2:3", "dmp1:1"), Files.readAllLines(mpich));
    }

    @Test
    void aBadHostfileLineReachesMpidrun() throws Exception {
        Path file = Files.writeString(dir.resolve("hosts"), "dmp1 slots=2\ndmp2 slots=none\n");
        Process main = java(file.toString());
        assertEquals(2, main.waitFor());
        assertTrue(new String(main.getErrorStream().readAllBytes()).contains(file + " line 2"), "mpidrun shows it");
    }

    private static Process java(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), Placement.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("SLURM_"));
        return builder.start();
    }
}
