package org.datampi.bench.harness;

import java.util.Locale;

/**
 * What every engine of a side-by-side run gets, so that they are compared at equal cores and equal memory: at most
 * {@code tasks} Hive tasks at once where the engine can run them safely in separate processes, and {@code heapMb} of
 * heap in all.
 *
 * <p>How each engine spends it: datampi gives half to Hive's JVM and half to {@code tasks} ranks; tez-yarn gives the
 * same half to {@code tasks} task containers and the other half to Hive's JVM and Tez's application master; mr and
 * tez (local) get one JVM of the whole heap running one task at a time, because Hive's local modes share operator
 * trees between the tasks of a JVM and give wrong answers with more than one at once.
 */
public record TaskBudget(int tasks, long heapMb) {
    /** The Tez application master's container in tez-yarn: taken from the Hive JVM's half. */
    public static final long TEZ_AM_MB = 1024;

    public TaskBudget {
        if (tasks < 1) {
            throw new IllegalArgumentException("Invalid value " + tasks + " for --procs: expected 1 or more");
        }
        if (heapMb / 2 / tasks < 256) {
            throw new IllegalArgumentException("Invalid value " + heapMb + " MB for --heap: expected at least "
                    + 512 * tasks + " MB for " + tasks + " tasks at once (256 MB each and as much for Hive)");
        }
    }

    /** The heap of one task process: a datampi rank, a tez-yarn task container. */
    public long taskHeapMb() {
        return heapMb / 2 / tasks;
    }

    /** The heap of the JVM that runs Hive itself (the benchmark's runner). */
    public long clientHeapMb(String engine) {
        return switch (EngineBaseline.checked(engine)) {
            case "datampi", "datampi-mr", "datampi-cache" -> heapMb / 2;
            case "tez-yarn" -> heapMb / 2 - TEZ_AM_MB;
            default -> heapMb;
        };
    }

    /** How many Hive tasks the engine runs at once within this budget. */
    public int tasksAtOnce(String engine) {
        return switch (EngineBaseline.checked(engine)) {
            case "datampi", "datampi-mr", "datampi-cache", "tez-yarn" -> tasks;
            default -> 1;
        };
    }

    /** One line for the report: how many tasks ran at once and how much heap each process had. */
    public String describe(String engine) {
        return switch (EngineBaseline.checked(engine)) {
            case "datampi", "datampi-mr", "datampi-cache" -> String.format(Locale.ROOT, "%s: %d tasks at once; Hive's JVM %,d MB "
                    + "and %d rank%s of %,d MB, each running one task at a time", engine, tasks, clientHeapMb(engine),
                    tasks, tasks == 1 ? "" : "s", taskHeapMb());
            case "tez-yarn" -> String.format(Locale.ROOT, "tez-yarn: %d tasks at once; Hive's JVM %,d MB, Tez's AM "
                    + "container %,d MB and %d task container%s of %,d MB on one YARN NodeManager (container reuse, "
                    + "prewarmed session; its peak memory includes YARN's ResourceManager and NodeManager)", tasks,
                    clientHeapMb(engine), TEZ_AM_MB, tasks, tasks == 1 ? "" : "s", taskHeapMb());
            default -> String.format(Locale.ROOT, "%s: 1 task at once; one JVM of %,d MB (Hive's local mode: more "
                    + "than one task at once gives wrong answers)", engine, heapMb);
        };
    }
}
