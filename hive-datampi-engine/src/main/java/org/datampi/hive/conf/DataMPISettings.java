package org.datampi.hive.conf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.IntPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.datampi.runtime.Placement;
import org.datampi.runtime.SlurmAllocation.TaskMemory;
import org.datampi.shuffle.ShuffleSettings;

/**
 * The hive.datampi.* settings of a session (hive-site.xml or SET). Their defaults are the code's (each key's doc
 * names it); conf/hive-site.xml sets some for bin/hive-datampi.
 */
public final class DataMPISettings {
    /** The engine's name: {@code hive.execution.engine=datampi} selects it. */
    public static final String ENGINE = "datampi";
    /** default | enhanced: how O and A task counts are chosen (the paper's Section IV-D). */
    public static final String PARALLELISM = "hive.datampi.parallelism";
    /** Share of a rank's heap for received shuffle data before it spills (0.4). */
    public static final String MEM_USED_PERCENT = "hive.datampi.memusedpercent";
    /** Send blocks queued or in flight per rank (6). */
    public static final String SEND_QUEUE = "hive.datampi.sendqueue";
    /**
     * Bytes of pairs per send block of a partition (mpid.block.size, 1 MB). A launch setting of the group: a stage that
     * sets another value than the warm group's starts a group with its own.
     */
    public static final String BLOCK_SIZE = "hive.datampi.block.size";
    /**
     * Seconds rank 0 holds a task that reads a split for the ranks on the split's hosts after the stage's first
     * request, while one of them has not asked yet (3; 0: not at all): Spark's spark.locality.wait. A launch setting
     * of the group (mpid.locality.wait): a stage that sets another value than the warm group's starts a group with
     * it, which replaces the warm group once that is idle.
     */
    public static final String LOCALITY_WAIT = "hive.datampi.locality.wait";
    /** At most this many ranks per stage (unset: the hostfile's slots, else this machine's cores). */
    public static final String PROCESSES = "hive.datampi.processes";
    /**
     * Heap of each rank's JVM ({@value #DEFAULT_HEAP}; in a Slurm job that asked for memory, at most 3/4 of a task's
     * share: {@link #heapMegabytes(Configuration, Placement)}).
     */
    public static final String HEAP = "hive.datampi.heap";
    /**
     * The largest heap a session may give its ranks (unset: no cap): an administrator's, set in hive-site.xml and
     * locked with hive.conf.restricted.list, so that no session starts ranks larger than the hosts were sized for.
     */
    public static final String HEAP_MAX = "hive.datampi.heap.max";
    /** openmpi | mpich (Open MPI when installed). */
    public static final String MPI = "hive.datampi.mpi";
    /** An mpidrun hostfile; unset: this machine. */
    public static final String HOSTFILE = "hive.datampi.hostfile";
    /** Whether more ranks than slots may run (false: refused). */
    public static final String OVERSUBSCRIBE = "hive.datampi.oversubscribe";

    /**
     * Megabytes of data each rank keeps in Hive's LLAP I/O cache, on its heap, for the queries that ask for it (a size
     * such as 256m; 0, the default: none): Hive's LlapIoImpl in the rank's JVM ({@code RankIoCache}), which the DAG
     * shape's scans of ORC (and Parquet's, through Hive's cache-only path) read through. The first size a rank is given
     * stays its cache's for its life. Off by default until it is measured (issue 52).
     */
    public static final String IO_CACHE_SIZE = "hive.datampi.io.cache.size";
    /** Whether a session's stages share warm ranks (true) or each stage starts its own (false). */
    public static final String REUSE_RANKS = "hive.datampi.reuse.ranks";
    /** Seconds a stage's ranks have to start its first O task before the stage fails (120). */
    public static final String START_TIMEOUT = "hive.datampi.start.timeout";
    /** Seconds a stage may run before it fails and its ranks are stopped (86400: a day). */
    public static final String STAGE_TIMEOUT = "hive.datampi.stage.timeout";
    /**
     * Seconds a cancelled DAG stage (HiveServer2's cancel, a session closed mid-query) has to end on its ranks before
     * they are stopped (5; 0: at once). Stopping the ranks mid-job is the only way out of a running task, and it ends
     * the group that every session of the JVM shares; a job that ends within the grace leaves the group warm, its
     * output discarded. Ctrl-C in the CLI and the MapReduce shape's kill stop the ranks at once.
     */
    public static final String CANCEL_GRACE = "hive.datampi.cancel.grace";
    /**
     * How many times a stage that failed because a rank was lost (killed, crashed, its host gone) runs again on a
     * fresh group of ranks (1); a stage that failed by an error of its own (a throwing UDF, corrupt input) is not.
     */
    public static final String STAGE_RETRIES = "hive.datampi.stage.retries";
    /**
     * At most this many groups of ranks run at once in one Hive JVM, the CLI's or HiveServer2's (2): a stage that finds
     * them all busy (Hive's parallel stages, other sessions) waits for one rather than starting more rank JVMs than
     * the hosts have room for. An administrator sets it in hive-site.xml and locks it with hive.conf.restricted.list.
     */
    public static final String GROUPS_MAX = "hive.datampi.groups.max";
    /**
     * The order in which stages waiting for a group get one: smallest (by Hive's estimate of a stage's work: the rows
     * it reads and shuffles and a fixed cost for each vertex; short queries pass long ones, each stage passed at most 8
     * times) or arrival (first come, first served). Each stage is queued by its own session's value: a stage of a session that asks for arrival is queued
     * as one of unknown size, which passes no other, so a session that sets smallest among sessions that keep arrival
     * passes theirs. An administrator sets it in hive-site.xml and locks it with hive.conf.restricted.list, as
     * {@link #GROUPS_MAX}.
     */
    public static final String QUEUE_ORDER = "hive.datampi.queue.order";
    /**
     * The plan shape: dag (Hive's Tez compiler: a DAG of vertices, docs/dag-mode.md; the default, the faster one) or
     * mapreduce (Hive's MapReduce compiler, the paper's O and A tasks).
     */
    public static final String PLAN = "hive.datampi.plan";
    /**
     * Whether Hive's CLI on a terminal shows a DAG stage's progress as Hive on Tez does, a table updated in place
     * (true); without a terminal, silent or in HiveServer2, progress is plain lines whatever this says.
     */
    public static final String INPLACE_PROGRESS = "hive.datampi.exec.inplace.progress";
    /** Whether a DAG stage ends with its execution summary on the console (true), as hive.tez.exec.print.summary. */
    public static final String PRINT_SUMMARY = "hive.datampi.exec.print.summary";
    /**
     * Whether a DAG's ranks run vertices side by side (true): a rank runs a task of any vertex that is ready when the
     * next in the DAG's order is not (false: every rank goes through the vertices in the DAG's order).
     */
    public static final String CONCURRENT_VERTICES = "hive.datampi.dag.concurrent.vertices";

    /** A rank's heap when hive.datampi.heap is unset (and nothing lowers it). */
    public static final String DEFAULT_HEAP = "2g";
    /**
     * hive.datampi.io.cache.size when unset: 0, off, or "auto": a quarter of the ranks' heap, as a power of two, where
     * that is 128m or more.
     */
    public static final String DEFAULT_IO_CACHE_SIZE = "0";
    /** Below this, a heap lowered to fit a Slurm task's memory is refused rather than run out of memory. */
    private static final long SMALLEST_DEFAULT_HEAP_MB = 512;
    private static final Pattern HEAP_SIZE = Pattern.compile("(\\d+)([kKmMgG]?)");

    public static final List<String> ALL = List.of(PARALLELISM, MEM_USED_PERCENT, SEND_QUEUE, BLOCK_SIZE, PROCESSES,
            HEAP, HEAP_MAX, MPI, HOSTFILE, OVERSUBSCRIBE, LOCALITY_WAIT, REUSE_RANKS, START_TIMEOUT, STAGE_TIMEOUT,
            CANCEL_GRACE, STAGE_RETRIES, GROUPS_MAX, QUEUE_ORDER, PLAN, INPLACE_PROGRESS, PRINT_SUMMARY,
            CONCURRENT_VERTICES, IO_CACHE_SIZE);
    /** The MPI implementations {@link #MPI} names (bin/mpidrun --mpi): Intel MPI runs MPICH's binding. */
    private static final List<String> MPI_IMPLEMENTATIONS = List.of("openmpi", "mpich", "impi");

    /** How a stage's task counts are chosen ({@link #PARALLELISM}): the paper's Section IV-D. */
    public enum Parallelism {
        DEFAULT, ENHANCED;

        /** The parallelism a configuration asks for, strictly: an unknown value is refused, naming the key. */
        public static Parallelism of(Configuration conf) {
            return choice(conf, PARALLELISM, DEFAULT, values());
        }
    }

    /** The orders of the queue of stages waiting for a group ({@link #QUEUE_ORDER}). */
    public enum QueueOrder {
        SMALLEST, ARRIVAL;

        /** The order a configuration asks for, strictly: an unknown value is refused, naming the key. */
        public static QueueOrder of(Configuration conf) {
            return choice(conf, QUEUE_ORDER, SMALLEST, values());
        }
    }

    /** The plan shapes {@link #PLAN} takes. */
    public enum PlanShape {
        DAG, MAPREDUCE;

        /** The shape a configuration asks for, strictly: an unknown value is refused, naming the key. */
        public static PlanShape of(Configuration conf) {
            return choice(conf, PLAN, DAG, values());
        }
    }

    private DataMPISettings() {
    }

    /** Whether a session's configuration selects this engine (hive.execution.engine, any case). */
    public static boolean engineSelected(HiveConf conf) {
        return ENGINE.equalsIgnoreCase(HiveConf.getVar(conf, HiveConf.ConfVars.HIVE_EXECUTION_ENGINE));
    }

    /** One of CHOICES by name, case aside (unset: DEFAULT_CHOICE); anything else is refused, naming them. */
    private static <E extends Enum<E>> E choice(Configuration conf, String key, E defaultChoice, E[] choices) {
        String value = valueOf(conf, key, defaultChoice.name().toLowerCase(Locale.ROOT));
        for (E choice : choices) {
            if (choice.name().equalsIgnoreCase(value)) {
                return choice;
            }
        }
        throw new IllegalArgumentException("Invalid value '" + value + "' for " + key + ": expected "
                + Arrays.stream(choices).map(choice -> choice.name().toLowerCase(Locale.ROOT))
                        .collect(Collectors.joining(" or ")));
    }

    /**
     * Checks every datampi setting that is set, as a stage reads it, so that a wrong value is refused where it is
     * given (bin/hive-datampi's SET) or when the next statement compiles (HiveServer2, whose SET has no hook), naming
     * the key and what it accepts, rather than when a stage starts. Whether the ranks fit the hostfile's slots is the
     * stage's check (JobPlan.slots): the hostfile may change meanwhile.
     */
    public static void validate(Configuration conf) {
        for (String key : ALL) {
            if (conf.get(key) != null) {
                validate(conf, key);
            }
        }
    }

    /**
     * A setting's value, trimmed; DEFAULT_VALUE when it is unset or blank, as everywhere in the engine (hive-site.xml
     * ships some empty, and {@code SET hive.datampi.mpi=} goes back to the default).
     */
    private static String valueOf(Configuration conf, String key, String defaultValue) {
        String value = conf.getTrimmed(key);
        return value == null || value.isEmpty() ? defaultValue : value;
    }

    /** Checks one setting of {@link #ALL} as {@link #validate(Configuration)} does; an unset one is its default. */
    public static void validate(Configuration conf, String key) {
        switch (key) {
            case PARALLELISM -> Parallelism.of(conf);
            case MEM_USED_PERCENT -> fraction(conf, MEM_USED_PERCENT, 0.4);
            case SEND_QUEUE -> atLeast(conf, SEND_QUEUE, 6, 1, "a positive number of blocks");
            case BLOCK_SIZE -> blockSize(conf);
            case PROCESSES -> atLeast(conf, PROCESSES, 1, 1, "a positive number of ranks");
            case HEAP, HEAP_MAX -> heapMegabytes(conf);
            case MPI -> mpi(conf);
            case HOSTFILE -> hostfile(conf);
            case OVERSUBSCRIBE -> flag(conf, OVERSUBSCRIBE, false);
            case LOCALITY_WAIT -> localityWaitSeconds(conf);
            case REUSE_RANKS -> flag(conf, REUSE_RANKS, true);
            case INPLACE_PROGRESS -> flag(conf, INPLACE_PROGRESS, true);
            case PRINT_SUMMARY -> flag(conf, PRINT_SUMMARY, true);
            case CONCURRENT_VERTICES -> flag(conf, CONCURRENT_VERTICES, true);
            case START_TIMEOUT -> startTimeoutSeconds(conf);
            case STAGE_TIMEOUT -> stageTimeoutSeconds(conf);
            case CANCEL_GRACE -> cancelGraceSeconds(conf);
            case STAGE_RETRIES -> stageRetries(conf);
            case GROUPS_MAX -> groupsMax(conf);
            case QUEUE_ORDER -> QueueOrder.of(conf);
            case PLAN -> PlanShape.of(conf);
            case IO_CACHE_SIZE -> checkedIoCacheMegabytes(conf);
            default -> throw new IllegalArgumentException("Not a datampi setting: " + key + "; accepted: " + ALL);
        }
    }

    /**
     * {@link #heapMegabytes(Configuration, Placement)} where the stage's ranks go (hive.datampi.hostfile, Slurm). When
     * that cannot be told yet (a hostfile that cannot be read, Slurm's scontrol failing), the heap is checked as if
     * nothing limited a rank's memory: the placement's own error is the hostfile's check's, or the stage's, to give.
     */
    public static long heapMegabytes(Configuration conf) {
        Optional<TaskMemory> memory;
        try {
            memory = Placement.of(conf.getTrimmed(HOSTFILE, "")).memoryPerRank();
        } catch (RuntimeException e) {
            memory = Optional.empty();
        }
        return heapMegabytes(conf, memory);
    }

    /**
     * The ranks' heap in megabytes: hive.datampi.heap as the JVM takes it (768m, 2g; unset, {@value #DEFAULT_HEAP}),
     * within the administrator's {@link #HEAP_MAX} when set. Where PLACEMENT limits a rank's memory (a Slurm job that
     * asked for memory per CPU or node, which its cgroups may enforce by killing the task), the heap must leave a
     * quarter of it for the JVM's and MPI's other memory: a heap set larger is refused naming the job and its memory,
     * rather than a rank killed mid-query. Unset, the heap is the default lowered to what fits (the task's memory, the
     * cap). Hive's side passes this heap to every group it starts (StageLaunch) and sizes Tez's task memory by it
     * (DagBuilder): one number for both.
     */
    public static long heapMegabytes(Configuration conf, Placement placement) {
        return heapMegabytes(conf, placement.memoryPerRank());
    }

    private static long heapMegabytes(Configuration conf, Optional<TaskMemory> memory) {
        boolean requested = !valueOf(conf, HEAP, "").isEmpty();
        long heap = megabytes(conf, HEAP, DEFAULT_HEAP);
        String cap = valueOf(conf, HEAP_MAX, "");
        if (!cap.isEmpty() && heap > megabytes(conf, HEAP_MAX, cap)) {
            if (requested) {
                throw new IllegalArgumentException(HEAP + "=" + valueOf(conf, HEAP, DEFAULT_HEAP) + " is more than "
                        + HEAP_MAX + "=" + cap + ", the administrator's cap on a rank's heap");
            }
            heap = megabytes(conf, HEAP_MAX, cap);
        }
        if (memory.isPresent() && heap > memory.get().largestHeapMegabytes()) {
            TaskMemory task = memory.get();
            if (requested) {
                throw new IllegalArgumentException(HEAP + "=" + valueOf(conf, HEAP, DEFAULT_HEAP) + " does not fit "
                        + task + ": a rank's JVM needs a third more than its heap (metaspace, thread stacks, MPI's "
                        + "buffers); set " + HEAP + " to at most " + task.largestHeapMegabytes() + "m, or ask Slurm "
                        + "for more memory per task (salloc/sbatch --mem-per-cpu or --mem)");
            }
            heap = task.largestHeapMegabytes();
            if (heap < SMALLEST_DEFAULT_HEAP_MB) {
                throw new IllegalArgumentException("A rank does not fit " + task + ": its heap would be " + heap
                        + "m; ask Slurm for at least " + (long) Math.ceil(SMALLEST_DEFAULT_HEAP_MB
                        / TaskMemory.HEAP_SHARE) + " MB per task (salloc/sbatch --mem-per-cpu or --mem)");
            }
        }
        return heap;
    }

    /** An MPI implementation bin/mpidrun runs, strictly (unset: Open MPI when installed, else MPICH). */
    public static void mpi(Configuration conf) {
        String value = valueOf(conf, MPI, "");
        if (!value.isEmpty() && !MPI_IMPLEMENTATIONS.contains(value)) {
            throw new IllegalArgumentException("Invalid value '" + value + "' for " + MPI + ": expected one of "
                    + String.join(", ", MPI_IMPLEMENTATIONS));
        }
    }

    private static void hostfile(Configuration conf) {
        String value = valueOf(conf, HOSTFILE, "");
        if (!value.isEmpty() && !Files.isReadable(Path.of(value))) {
            throw new IllegalArgumentException("Invalid value '" + value + "' for " + HOSTFILE
                    + ": expected a readable mpidrun hostfile (no such file, or not readable)");
        }
    }

    /** A number in (0, 1], strictly. */
    private static double fraction(Configuration conf, String key, double defaultValue) {
        String value = valueOf(conf, key, String.valueOf(defaultValue));
        try {
            double number = Double.parseDouble(value);
            if (number > 0 && number <= 1) {
                return number;
            }
        } catch (NumberFormatException e) {
            // Named below.
        }
        throw new IllegalArgumentException("Invalid value '" + value + "' for " + key
                + ": expected a number in (0, 1], e.g. " + defaultValue);
    }

    /**
     * {@link #IO_CACHE_SIZE} in megabytes (0: off); checked where it is given ({@link #validate}): a power of two from
     * 128 (Hive's allocator needs more than 64) to a quarter of {@link #heapMegabytes(Configuration)}, which leaves the
     * shuffle's share (hive.datampi.memusedpercent) and the operators theirs; "auto" is the largest such size, or 0
     * where the heap is under 512m. The client resolves "auto" for a query (the ranks read the number it gives them).
     */
    public static long ioCacheMegabytes(Configuration conf) {
        String value = valueOf(conf, IO_CACHE_SIZE, DEFAULT_IO_CACHE_SIZE);
        if (value.equalsIgnoreCase("auto")) {
            long quarter = heapMegabytes(conf) / 4;
            return quarter < 128 ? 0 : Long.highestOneBit(quarter);
        }
        return value.matches("0+[kKmMgG]?") ? 0 : megabytes(conf, IO_CACHE_SIZE, DEFAULT_IO_CACHE_SIZE);
    }

    private static long checkedIoCacheMegabytes(Configuration conf) {
        long cache = ioCacheMegabytes(conf);
        long heap = heapMegabytes(conf);
        if (cache != 0 && (cache < 128 || Long.bitCount(cache) != 1 || cache > heap / 4)) {
            throw new IllegalArgumentException("Invalid value '" + valueOf(conf, IO_CACHE_SIZE, DEFAULT_IO_CACHE_SIZE)
                    + "' for " + IO_CACHE_SIZE + ": expected auto, 0 or a power of two from 128m to a quarter of the "
                    + "ranks' heap (" + HEAP + "=" + heap + "m), such as 256m");
        }
        return cache;
    }

    private static long megabytes(Configuration conf, String key, String defaultValue) {
        String value = valueOf(conf, key, defaultValue);
        Matcher size = HEAP_SIZE.matcher(value);
        if (!size.matches()) {
            throw new IllegalArgumentException("Invalid value '" + value + "' for " + key
                    + ": expected a JVM heap size such as 768m or 2g");
        }
        long number = Long.parseLong(size.group(1));
        return switch (size.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> Math.max(1, number / 1024);
            case "m" -> number;
            case "g" -> number * 1024;
            default -> Math.max(1, number / (1024 * 1024));
        };
    }

    /** {@link #START_TIMEOUT}, strictly. */
    public static long startTimeoutSeconds(Configuration conf) {
        return seconds(conf, START_TIMEOUT, 120);
    }

    /** {@link #STAGE_TIMEOUT}, strictly. */
    public static long stageTimeoutSeconds(Configuration conf) {
        return seconds(conf, STAGE_TIMEOUT, 86_400);
    }

    /** A positive number of seconds, strictly: anything else is refused, naming the key. */
    private static long seconds(Configuration conf, String key, long defaultValue) {
        String value = valueOf(conf, key, String.valueOf(defaultValue));
        try {
            long seconds = Long.parseLong(value);
            if (seconds > 0) {
                return seconds;
            }
        } catch (NumberFormatException e) {
            // Named below.
        }
        throw new IllegalArgumentException("Invalid value '" + value + "' for " + key
                + ": expected a positive number of seconds");
    }

    /** {@link #CANCEL_GRACE}: 0 or more seconds, strictly. */
    public static int cancelGraceSeconds(Configuration conf) {
        return atLeast(conf, CANCEL_GRACE, 5, 0, "0 (stop the ranks at once) or a positive number of seconds");
    }

    /** How long a split's task is held for its hosts' ranks ({@link #LOCALITY_WAIT}, 3): 0 or more seconds. */
    public static int localityWaitSeconds(Configuration conf) {
        return atLeast(conf, LOCALITY_WAIT, ShuffleSettings.DEFAULT_LOCALITY_WAIT, 0,
                "0 (no wait) or a positive number of seconds");
    }

    /** Bytes per send block ({@link #BLOCK_SIZE}, 1 MB), within what the ranks' mpid.block.size accepts, strictly. */
    public static int blockSize(Configuration conf) {
        return integer(conf, BLOCK_SIZE, ShuffleSettings.DEFAULT_BLOCK_SIZE, ShuffleSettings::validBlockSize,
                ShuffleSettings.BLOCK_SIZE_ACCEPTED);
    }

    /** How many times a stage that lost a rank runs again ({@link #STAGE_RETRIES}, 1): 0 or more, strictly. */
    public static int stageRetries(Configuration conf) {
        return atLeast(conf, STAGE_RETRIES, 1, 0, "0 (no retry) or a positive number of retries");
    }

    /** How many groups of ranks may run at once in this JVM ({@link #GROUPS_MAX}, 2): 1 or more, strictly. */
    public static int groupsMax(Configuration conf) {
        return atLeast(conf, GROUPS_MAX, 2, 1, "a positive number of groups");
    }

    /** An integer of at least MIN, strictly: anything else is refused, naming the key and what EXPECTED says. */
    private static int atLeast(Configuration conf, String key, int defaultValue, int min, String expected) {
        return integer(conf, key, defaultValue, number -> number >= min, expected);
    }

    /** An integer setting that VALID accepts, strictly: another value is refused naming the key and EXPECTED. */
    private static int integer(Configuration conf, String key, int defaultValue, IntPredicate valid, String expected) {
        String value = valueOf(conf, key, String.valueOf(defaultValue));
        try {
            int number = Integer.parseInt(value);
            if (valid.test(number)) {
                return number;
            }
        } catch (NumberFormatException e) {
            // Named below.
        }
        throw new IllegalArgumentException("Invalid value '" + value + "' for " + key + ": expected " + expected);
    }

    /**
     * A true/false setting, strictly: Hadoop's getBoolean takes any other word for the default, so that a typo would
     * silently do the opposite of what was meant.
     */
    public static boolean flag(Configuration conf, String key, boolean defaultValue) {
        String value = valueOf(conf, key, String.valueOf(defaultValue));
        if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException("Invalid value '" + value + "' for " + key + ": expected true or false");
        }
        return Boolean.parseBoolean(value);
    }
}
