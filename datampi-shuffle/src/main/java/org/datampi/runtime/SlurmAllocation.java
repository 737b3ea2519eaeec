package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Slurm allocation this process runs in (inside {@code salloc} or an {@code sbatch} script):
 * its nodes and how many tasks each may run, from the variables Slurm sets for a job. A rank runs per task, as
 * {@code srun} and the MPI implementations' own Slurm support (Open MPI's ras/plm slurm, Hydra's slurm bootstrap)
 * count them: {@code salloc -N 3} gives one per node, {@code salloc -N 3 --ntasks-per-node=2} two.
 *
 * <p>The node list's form ({@code dmp[1-3,5],gpu07}) is expanded by Slurm itself ({@code scontrol show hostnames},
 * the way Slurm's documentation expands it in job scripts): its ranges, zero padding and prefixes are Slurm's to
 * define. The tasks per node ({@code 2(x3),1}: a count, repeated) has no such command; {@link #tasksPerNode} reads
 * that one form, as Open MPI's Slurm support does.
 *
 * <p>The job's memory, when it asked for some ({@code --mem-per-cpu}, {@code --mem}), is a task's share of it: what a
 * rank on that task may use, heap and all ({@link TaskMemory}).
 *
 * @param jobId SLURM_JOB_ID
 * @param nodeList SLURM_JOB_NODELIST as Slurm wrote it, for messages
 * @param nodes each node with its tasks, in Slurm's order
 * @param memoryPerTask a task's share of the job's memory; empty when the job did not ask for memory
 */
public record SlurmAllocation(String jobId, String nodeList, List<Hostfile.Host> nodes,
        Optional<TaskMemory> memoryPerTask) {
    static final String JOB_ID = "SLURM_JOB_ID";
    static final String NODE_LIST = "SLURM_JOB_NODELIST";
    static final String TASKS_PER_NODE = "SLURM_TASKS_PER_NODE";
    static final String MEM_PER_CPU = "SLURM_MEM_PER_CPU";
    static final String MEM_PER_NODE = "SLURM_MEM_PER_NODE";
    static final String CPUS_PER_TASK = "SLURM_CPUS_PER_TASK";
    static final String CPUS_PER_NODE = "SLURM_JOB_CPUS_PER_NODE";
    private static final Pattern TASK_COUNT = Pattern.compile("(\\d+)(?:\\(x(\\d+)\\))?");
    private static final long SCONTROL_SECONDS = 30;
    /**
     * scontrol's expansion of this process's node list, done once per JVM: the environment it reads is the process's
     * for its life (JVM-wide on purpose; every stage of a Hive session asks).
     */
    static final Function<String, List<String>> CURRENT_NODES = new Function<>() {
        private final Map<String, List<String>> expanded = new ConcurrentHashMap<>();

        @Override
        public List<String> apply(String nodeList) {
            return expanded.computeIfAbsent(nodeList, SlurmAllocation::scontrolHostnames);
        }
    };

    public SlurmAllocation {
        requireNonNull(jobId, "jobId is null");
        requireNonNull(nodeList, "nodeList is null");
        nodes = List.copyOf(nodes);
        requireNonNull(memoryPerTask, "memoryPerTask is null");
    }

    /**
     * The memory a task of the job may use (Slurm's limit on it, where its cgroups enforce one), and where that
     * figure comes from, for messages. A rank's JVM needs more than its heap (metaspace, code, thread stacks,
     * direct buffers, MPI's own): its heap may take {@link #HEAP_SHARE} of the task's memory.
     */
    public record TaskMemory(long megabytes, String jobId, String source) {
        /** The heap's share of a task's memory: a quarter stays for what the JVM and MPI use beside the heap. */
        public static final double HEAP_SHARE = 0.75;

        public TaskMemory {
            requireNonNull(jobId, "jobId is null");
            requireNonNull(source, "source is null");
        }

        /** The largest heap that fits a task's memory. */
        public long largestHeapMegabytes() {
            return (long) (megabytes * HEAP_SHARE);
        }

        /** "the 2048 MB per task of Slurm job 12 (SLURM_MEM_PER_CPU=2048 x 1 CPU per task)". */
        @Override
        public String toString() {
            return "the " + megabytes + " MB per task of Slurm job " + jobId + " (" + source + ")";
        }
    }

    /**
     * The allocation that ENVIRONMENT describes, HOSTNAMES expanding its node list; empty when SLURM_JOB_ID is unset.
     * Variables that are missing or disagree (a node list of 3 nodes with task counts for 2) are an error naming them.
     */
    static Optional<SlurmAllocation> of(Map<String, String> environment, Function<String, List<String>> hostnames) {
        String jobId = environment.getOrDefault(JOB_ID, "").trim();
        if (jobId.isEmpty()) {
            return Optional.empty();
        }
        String nodeList = require(environment, NODE_LIST, jobId);
        List<Integer> tasks = tasksPerNode(require(environment, TASKS_PER_NODE, jobId));
        List<String> names = hostnames.apply(nodeList);
        if (names.size() != tasks.size()) {
            throw new IllegalArgumentException("Slurm job " + jobId + ": " + NODE_LIST + "=" + nodeList + " names "
                    + names.size() + " nodes but " + TASKS_PER_NODE + "=" + environment.get(TASKS_PER_NODE)
                    + " gives tasks for " + tasks.size());
        }
        List<Hostfile.Host> nodes = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            nodes.add(new Hostfile.Host(names.get(i), tasks.get(i)));
        }
        return Optional.of(new SlurmAllocation(jobId, nodeList, nodes, memoryPerTask(environment, jobId, tasks)));
    }

    /**
     * A task's memory, on the node where a task gets least: SLURM_MEM_PER_CPU (salloc/sbatch --mem-per-cpu) times the
     * CPUs Slurm gave the job on a node (SLURM_JOB_CPUS_PER_NODE: more than tasks times -c with whole cores,
     * --exclusive, or -N without -n) over that node's tasks; without the CPUs per node, times SLURM_CPUS_PER_TASK (-c;
     * else one). Or SLURM_MEM_PER_NODE (--mem) over the most tasks a node runs. Both in megabytes. --mem=0 (a node's
     * whole memory) and no memory asked for say nothing of a task's share.
     */
    private static Optional<TaskMemory> memoryPerTask(Map<String, String> environment, String jobId,
            List<Integer> tasks) {
        long perCpu = megabytes(environment, MEM_PER_CPU, jobId);
        if (perCpu > 0) {
            String cpusPerNode = environment.getOrDefault(CPUS_PER_NODE, "").trim();
            List<Integer> cpus = cpusPerNode.isEmpty() ? List.of() : tasksPerNode(cpusPerNode);
            if (cpus.size() == tasks.size()) {
                int least = 0;
                for (int node = 1; node < tasks.size(); node++) {
                    if ((long) cpus.get(node) * tasks.get(least) < (long) cpus.get(least) * tasks.get(node)) {
                        least = node;
                    }
                }
                int nodeCpus = cpus.get(least);
                int nodeTasks = tasks.get(least);
                String share = nodeCpus % nodeTasks == 0 ? cpuCount(nodeCpus / nodeTasks) + " per task"
                        : cpuCount(nodeCpus) + " of a node over its " + nodeTasks + " tasks";
                return Optional.of(new TaskMemory(perCpu * nodeCpus / nodeTasks, jobId, MEM_PER_CPU + "=" + perCpu
                        + " x " + share));
            }
            long cpusPerTask = Math.max(1, megabytes(environment, CPUS_PER_TASK, jobId));
            return Optional.of(new TaskMemory(perCpu * cpusPerTask, jobId, MEM_PER_CPU + "=" + perCpu + " x "
                    + cpuCount(cpusPerTask) + " per task"));
        }
        long perNode = megabytes(environment, MEM_PER_NODE, jobId);
        if (perNode > 0) {
            int mostTasks = tasks.stream().mapToInt(Integer::intValue).max().orElse(1);
            return Optional.of(new TaskMemory(perNode / mostTasks, jobId, MEM_PER_NODE + "=" + perNode + " over "
                    + mostTasks + " task" + (mostTasks == 1 ? "" : "s") + " of a node"));
        }
        return Optional.empty();
    }

    private static String cpuCount(long cpus) {
        return cpus + " CPU" + (cpus == 1 ? "" : "s");
    }

    /** A whole number Slurm set (0 when unset). */
    private static long megabytes(Map<String, String> environment, String name, String jobId) {
        String value = environment.getOrDefault(name, "").trim();
        if (value.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Slurm job " + jobId + ": " + name + "='" + value
                    + "' is not a whole number", e);
        }
    }

    public int tasks() {
        return nodes.stream().mapToInt(Hostfile.Host::slots).sum();
    }

    /** {@code 2(x3),1} is [2, 2, 2, 1]: Slurm's form of SLURM_TASKS_PER_NODE and SLURM_JOB_CPUS_PER_NODE. */
    static List<Integer> tasksPerNode(String value) {
        List<Integer> tasks = new ArrayList<>();
        for (String part : value.trim().split(",")) {
            Matcher matcher = TASK_COUNT.matcher(part.trim());
            if (!matcher.matches() || Integer.parseInt(matcher.group(1)) < 1) {
                throw new IllegalArgumentException(TASKS_PER_NODE + "='" + value + "' is not Slurm's form of tasks "
                        + "per node (N or N(xM), separated by commas, N >= 1)");
            }
            int repeat = matcher.group(2) == null ? 1 : Integer.parseInt(matcher.group(2));
            for (int i = 0; i < repeat; i++) {
                tasks.add(Integer.parseInt(matcher.group(1)));
            }
        }
        return tasks;
    }

    private static String require(Map<String, String> environment, String name, String jobId) {
        String value = environment.getOrDefault(name, "").trim();
        if (value.isEmpty()) {
            throw new IllegalArgumentException("Slurm job " + jobId + " (" + JOB_ID + ") but " + name + " is not "
                    + "set: run inside the job's salloc or sbatch script, which set it");
        }
        return value;
    }

    /**
     * {@code scontrol show hostnames NODE_LIST}: one node per line, in Slurm's order. (It expands the list locally,
     * without asking the controller; its output goes through files so that the wait has a deadline, and its warnings
     * are not taken for nodes.)
     */
    static List<String> scontrolHostnames(String nodeList) {
        Path output = null;
        Path errors = null;
        try {
            output = Files.createTempFile("datampi-slurm-nodes", ".txt");
            errors = Files.createTempFile("datampi-slurm-nodes", ".err");
            Process process = new ProcessBuilder("scontrol", "show", "hostnames", nodeList)
                    .redirectOutput(output.toFile()).redirectError(errors.toFile()).start();
            if (!process.waitFor(SCONTROL_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("scontrol show hostnames " + nodeList + " did not end within "
                        + SCONTROL_SECONDS + " s");
            }
            if (process.exitValue() != 0) {
                throw new IllegalArgumentException("scontrol show hostnames " + nodeList + " failed (exit "
                        + process.exitValue() + "): " + Files.readString(errors, StandardCharsets.UTF_8).strip());
            }
            return Files.readAllLines(output, StandardCharsets.UTF_8).stream().map(String::strip)
                    .filter(line -> !line.isEmpty()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run Slurm's scontrol to expand " + NODE_LIST + "=" + nodeList
                    + " (is slurm-client installed and on the PATH?): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while expanding " + NODE_LIST + "=" + nodeList, e);
        } finally {
            for (Path file : new Path[] {output, errors}) {
                if (file != null) {
                    file.toFile().delete();
                }
            }
        }
    }
}
