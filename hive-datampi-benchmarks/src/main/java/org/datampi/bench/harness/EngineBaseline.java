package org.datampi.bench.harness;

import static java.util.Objects.requireNonNull;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.hadoop.fs.LocalFileSystem;

/**
 * The settings each engine runs the benchmarks with, so that all of them run at their best correct setting within
 * the same {@link TaskBudget}. For tez-yarn it also owns the YARN cluster the engine runs on.
 *
 * <ul>
 * <li>datampi: datampi as users get it, its default DAG shape (Hive's Tez plans on the ranks): one rank per task of
 * the budget (hive.datampi.processes), each one task at a time; datampi-mr: the same ranks in the paper's MapReduce
 * shape (hive.datampi.plan=mapreduce); datampi-cache: the DAG shape with the ranks' cache of ORC data
 * (hive.datampi.io.cache.size=auto, a quarter of each rank's heap), to measure the cache beside datampi while it is
 * off by default.</li>
 * <li>mr, tez: Hive's local modes (LocalJobRunner, Tez local mode) in this JVM, one task at a time: Hive shares
 * operator trees across the tasks of one JVM, and two at once give wrong answers.</li>
 * <li>tez-yarn: Hive on Tez as a Tez user on a cluster runs it: a session AM on a real {@link YarnCluster}, each task
 * in a container JVM of its own, as many at once as datampi has ranks, containers reused and prewarmed, and the
 * runtime's buffers at the sizes Tez and Hive document for the container's heap.</li>
 * </ul>
 */
public final class EngineBaseline implements AutoCloseable {
    public static final List<String> ENGINES = List.of("datampi", "datampi-mr", "datampi-cache", "mr", "tez",
            "tez-yarn");
    private static final String MANY_COUNTERS = "10000";
    private static final String PARALLEL_GC = "-XX:+UseParallelGC";

    private final Map<String, String> settings;
    private final Optional<YarnCluster> yarn;

    private EngineBaseline(Map<String, String> settings, Optional<YarnCluster> yarn) {
        this.settings = Map.copyOf(settings);
        this.yarn = requireNonNull(yarn, "yarn is null");
    }

    /** The engine's name if it is one of {@link #ENGINES}; otherwise an error that lists them. */
    public static String checked(String engine) {
        if (engine.equals("datampi-dag")) {
            // The name benchmarks used while the DAG shape was not the default: say what it is now.
            throw new IllegalArgumentException("Unknown engine 'datampi-dag': the DAG shape is datampi's default "
                    + "and is named datampi; the MapReduce shape is datampi-mr");
        }
        if (!ENGINES.contains(engine)) {
            throw new IllegalArgumentException("Unknown engine '" + engine + "': expected one of "
                    + String.join(", ", ENGINES));
        }
        return engine;
    }

    /**
     * The engine's settings within the budget; for tez-yarn, starts its YARN cluster under {@code workDir}.
     */
    public static EngineBaseline start(String engine, TaskBudget budget, Path workDir)
            throws IOException, InterruptedException {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("hive.execution.engine", switch (checked(engine)) {
            case "tez-yarn" -> "tez";
            case "datampi-mr", "datampi-cache" -> "datampi";
            default -> engine;
        });
        // TPC-H's multi-subquery plans exceed Hadoop's and Tez's default of 120 counters.
        settings.put("mapreduce.job.counters.max", MANY_COUNTERS);
        if (!engine.startsWith("datampi")) {
            // The peers read local files as Hive users get them, through Hadoop's own local file system (the
            // embedded default gives datampi's sessions PosixLocalFileSystem).
            settings.put("fs.file.impl", LocalFileSystem.class.getName());
        }
        switch (engine) {
            case "datampi", "datampi-mr", "datampi-cache" -> {
                settings.put("hive.datampi.processes", Integer.toString(budget.tasks()));
                settings.put("hive.datampi.heap", budget.taskHeapMb() + "m");
                settings.put("hive.datampi.plan", engine.equals("datampi-mr") ? "mapreduce" : "dag");
                if (engine.equals("datampi-cache")) {
                    settings.put("hive.datampi.io.cache.size", "auto");
                }
            }
            case "mr" -> {
                settings.put("mapreduce.local.map.tasks.maximum", "1");
                settings.put("mapreduce.local.reduce.tasks.maximum", "1");
            }
            case "tez" -> {
                settings.put("tez.local.mode", "true");
                settings.put("tez.runtime.optimize.local.fetch", "true");
                settings.put("tez.am.inline.task.execution.max-tasks", "1");
                settings.put("tez.counters.max", MANY_COUNTERS);
            }
            case "tez-yarn" -> {
                YarnCluster cluster = YarnCluster.start(workDir.resolve("yarn"), daemonLib(), containerClasspath(),
                        budget.tasks(), budget.taskHeapMb(), TaskBudget.TEZ_AM_MB);
                settings.putAll(cluster.clientSettings());
                settings.putAll(tezOnYarn(budget, workDir));
                return new EngineBaseline(settings, Optional.of(cluster));
            }
            default -> throw new AssertionError(engine);
        }
        return new EngineBaseline(settings, Optional.empty());
    }

    private static Map<String, String> tezOnYarn(TaskBudget budget, Path workDir) {
        long taskMb = budget.taskHeapMb();
        Map<String, String> tez = new LinkedHashMap<>();
        tez.put("tez.local.mode", "false");
        tez.put("tez.counters.max", MANY_COUNTERS);
        // Tez's execution summary after each query (per vertex: time, CPU, records, shuffled bytes), as datampi prints
        // its own in every run: where each engine's time goes can be read side by side in the consoles.
        tez.put("hive.tez.exec.print.summary", "true");
        // Tez's jars are on every container's classpath (yarn.application.classpath): on one machine that is what
        // tez.lib.uris would localize, without the copy.
        tez.put("tez.ignore.lib.uris", "true");
        tez.put("tez.use.cluster.hadoop-libs", "true");
        tez.put("hive.user.install.directory", workDir.resolve("hive-install").toUri().toString());
        // The AM's web UI needs YARN's web proxy classes, which a cluster's AM gets from the Hadoop install.
        tez.put("tez.am.tez-ui.webservice.enable", "false");
        tez.put("tez.am.resource.memory.mb", Long.toString(TaskBudget.TEZ_AM_MB));
        tez.put("tez.am.launch.cmd-opts", "-Xmx" + TaskBudget.TEZ_AM_MB * 3 / 4 + "m " + PARALLEL_GC);
        // A task container's heap is the rank's heap datampi gets (the NodeManager does not kill for JVM overhead).
        tez.put("hive.tez.container.size", Long.toString(taskMb));
        tez.put("hive.tez.java.opts", "-Xmx" + taskMb + "m " + PARALLEL_GC);
        tez.put("tez.task.launch.cmd-opts", PARALLEL_GC);
        // Tez users' recommended setup: a session whose containers are started before the first query and kept.
        tez.put("hive.prewarm.enabled", "true");
        tez.put("hive.prewarm.numcontainers", Integer.toString(budget.tasks()));
        tez.put("tez.am.container.reuse.enabled", "true");
        tez.put("tez.am.session.min.held-containers", Integer.toString(budget.tasks()));
        // The sort buffer at 40% and the unordered output buffer at 10% of the container, as Hive's and Tez's
        // tuning guides give them.
        tez.put("tez.runtime.io.sort.mb", Long.toString(Math.min(2047, taskMb * 2 / 5)));
        tez.put("tez.runtime.unordered.output.buffer.size-mb", Long.toString(taskMb / 10));
        return tez;
    }

    /** The YARN daemons' classpath: what the hadoop-daemons module collects. */
    private static Path daemonLib() {
        return WorkloadRunner.home().resolve("hadoop-daemons/target/lib").toAbsolutePath();
    }

    /** Hive, Hadoop and Tez as the benchmark JVM has them (bin/functions.sh). */
    private static String containerClasspath() {
        Path benchmarks = WorkloadRunner.home().resolve("hive-datampi-benchmarks/target").toAbsolutePath();
        return String.join(File.pathSeparator, benchmarks.resolve("lib") + "/*",
                benchmarks.resolve("tez-lib") + "/*");
    }

    public Map<String, String> settings() {
        return settings;
    }

    /** The processes this baseline started for its engine: tez-yarn's YARN daemons; none for the others. */
    public List<ProcessHandle> processes() {
        return yarn.map(YarnCluster::daemons).orElse(List.of());
    }

    @Override
    public void close() {
        yarn.ifPresent(YarnCluster::close);
    }
}
