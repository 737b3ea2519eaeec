package org.datampi.bench.harness;

import java.util.Map;

/**
 * The settings each engine runs the benchmarks with, so that all of them run at their best correct setting on one
 * machine. mr and tez run in this JVM (LocalJobRunner, Tez local mode) one Hive task at a time: Hive shares operator
 * trees across the tasks of one JVM, and two at once give wrong answers. datampi runs one rank per core
 * (hive.datampi.processes), each rank one task at a time.
 */
public final class EngineBaseline {
    private static final String MANY_COUNTERS = "10000";

    private EngineBaseline() {
    }

    public static Map<String, String> settings(String engine) {
        return switch (engine) {
            case "datampi" -> Map.of("hive.execution.engine", "datampi");
            case "mr" -> Map.of(
                    "hive.execution.engine", "mr",
                    "mapreduce.local.map.tasks.maximum", "1",
                    "mapreduce.local.reduce.tasks.maximum", "1",
                    // TPC-H's multi-subquery plans exceed Hadoop's default of 120 counters.
                    "mapreduce.job.counters.max", MANY_COUNTERS);
            case "tez" -> Map.of(
                    "hive.execution.engine", "tez",
                    "tez.local.mode", "true",
                    "tez.runtime.optimize.local.fetch", "true",
                    "tez.am.inline.task.execution.max-tasks", "1",
                    "tez.counters.max", MANY_COUNTERS,
                    "mapreduce.job.counters.max", MANY_COUNTERS);
            default -> throw new IllegalArgumentException(
                    "Unknown engine '" + engine + "': expected datampi, mr or tez");
        };
    }
}
