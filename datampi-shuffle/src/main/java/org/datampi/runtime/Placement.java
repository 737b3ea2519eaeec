package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where a group's ranks may run and how many slots there are: the one rule that both sides apply, Hive's when it plans
 * a stage's ranks (hive.datampi.processes against the slots) and bin/mpidrun's when it starts them ({@link #main}).
 * In this order:
 * <ol>
 * <li>a hostfile, when one is given (hive.datampi.hostfile, mpidrun -f): its hosts and slots;</li>
 * <li>else the Slurm allocation this process runs in (SLURM_JOB_ID set: inside salloc or an sbatch script): its nodes
 * and tasks, which the MPI implementation's own Slurm support launches on, with no hostfile and no ssh;</li>
 * <li>else this machine: a slot per core.</li>
 * </ol>
 */
public sealed interface Placement {
    /** How many ranks fit: one per slot, task or core. */
    int slots();

    /** How many hosts the ranks may run on. */
    int hosts();

    /** Where the slots are, for messages: "the 6 slots of the hostfile F", "the 3 tasks of Slurm job 12 (...)". */
    String describe();

    /** The memory a rank may use, where the placement limits it: a Slurm task's share of its job's memory. */
    default Optional<SlurmAllocation.TaskMemory> memoryPerRank() {
        return Optional.empty();
    }

    /** Whether ranks may run on other hosts than this one (a status channel then listens on the network). */
    default boolean acrossHosts() {
        return !(this instanceof ThisMachine);
    }

    /** The ranks' hosts listed in a hostfile. */
    record OnHostfile(Hostfile hostfile) implements Placement {
        public OnHostfile {
            requireNonNull(hostfile, "hostfile is null");
        }

        @Override
        public int slots() {
            return hostfile.slots();
        }

        @Override
        public int hosts() {
            return (int) hostfile.hosts().stream().map(Hostfile.Host::name).distinct().count();
        }

        @Override
        public String describe() {
            return "the " + slots() + " slots of the hostfile " + hostfile.path();
        }
    }

    /** The nodes of the Slurm job this process runs in. */
    record InSlurmAllocation(SlurmAllocation allocation) implements Placement {
        public InSlurmAllocation {
            requireNonNull(allocation, "allocation is null");
        }

        @Override
        public int slots() {
            return allocation.tasks();
        }

        @Override
        public Optional<SlurmAllocation.TaskMemory> memoryPerRank() {
            return allocation.memoryPerTask();
        }

        @Override
        public int hosts() {
            return allocation.nodes().size();
        }

        @Override
        public String describe() {
            return "the " + slots() + " tasks of Slurm job " + allocation.jobId() + " (" + hosts() + " nodes "
                    + allocation.nodeList() + "; more with salloc/sbatch --ntasks-per-node or -n)";
        }
    }

    /** This machine alone. */
    record ThisMachine(int cores) implements Placement {
        @Override
        public int slots() {
            return cores;
        }

        @Override
        public int hosts() {
            return 1;
        }

        @Override
        public String describe() {
            return "this machine's " + cores + " cores";
        }
    }

    /**
     * The placement for HOSTFILE (blank: none) in this process's environment. A hostfile is read each time (an admin
     * may change it between stages); the Slurm allocation is the process's for its life, read once.
     */
    static Placement of(String hostfile) {
        return of(hostfile, System.getenv(), SlurmAllocation.CURRENT_NODES);
    }

    /** The same, with the environment and the expansion of Slurm's node lists given. */
    static Placement of(String hostfile, Map<String, String> environment,
            Function<String, List<String>> hostnames) {
        if (hostfile != null && !hostfile.isBlank()) {
            return new OnHostfile(Hostfile.read(Path.of(hostfile.trim())));
        }
        Optional<SlurmAllocation> allocation = SlurmAllocation.of(environment, hostnames);
        if (allocation.isPresent()) {
            return new InSlurmAllocation(allocation.get());
        }
        return new ThisMachine(Runtime.getRuntime().availableProcessors());
    }

    /**
     * bin/mpidrun's view, {@code Placement [HOSTFILE [MPICH_FILE]]} (HOSTFILE empty: none): prints the slots, the
     * hosts and whether ranks go across hosts ("6 3 true") on the first line and {@link #describe()} on the second, and writes Hydra's form of a hostfile
     * (MPICH's and Intel MPI's {@code host:N} lines) to MPICH_FILE when given. A hostfile that cannot be read or is
     * malformed, or a Slurm job whose variables do not add up, is an error naming it on standard error, exit status 2.
     */
    static void main(String[] args) {
        if (args.length > 2) {
            System.err.println("Usage: Placement [HOSTFILE [MPICH_FILE]]");
            System.exit(2);
        }
        try {
            Placement placement = of(args.length > 0 ? args[0] : "");
            if (args.length == 2 && placement instanceof OnHostfile onHostfile) {
                Files.write(Path.of(args[1]), onHostfile.hostfile().mpichLines());
            }
            System.out.println(placement.slots() + " " + placement.hosts() + " " + placement.acrossHosts());
            System.out.println(placement.describe());
        } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
            System.err.println(e.getMessage());
            System.exit(2);
        } catch (IOException e) {
            System.err.println("Cannot write " + args[1] + ": " + e.getMessage());
            System.exit(2);
        }
    }
}
