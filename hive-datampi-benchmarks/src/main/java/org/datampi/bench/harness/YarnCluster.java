package org.datampi.bench.harness;

import static java.util.Objects.requireNonNull;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * A one-node YARN cluster on this machine for the benchmarks' Tez-on-YARN baseline: Hadoop 3.4.1's own
 * ResourceManager and NodeManager, each started from its main class in a JVM of its own (the classpath that the
 * {@code hadoop-daemons} module collects), with generated {@code yarn-site.xml}, {@code core-site.xml} and
 * {@code capacity-scheduler.xml}. The NodeManager offers exactly the memory of one application master and
 * {@code taskContainers} task containers, so that YARN runs as many tasks at once as datampi has ranks, each in a
 * container JVM of its own.
 *
 * <p>Containers run on the classpath of the benchmark JVM (Hive, Hadoop, Tez from this checkout): on one machine,
 * that is what {@code tez.lib.uris} would localize. {@link #close()} stops both daemons and every container; a
 * shutdown hook does the same if the JVM ends first.
 */
public final class YarnCluster implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final long DAEMON_HEAP_MB = 512;

    private final Path dir;
    private final Map<String, String> clientSettings;
    private final List<Process> daemons = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::stopDaemons, "yarn-cluster-stop");

    private YarnCluster(Path dir, Map<String, String> clientSettings) {
        this.dir = requireNonNull(dir, "dir is null");
        this.clientSettings = Map.copyOf(clientSettings);
    }

    /**
     * Starts the ResourceManager and the NodeManager under {@code dir} (configuration, logs, NodeManager's local
     * directories; removed first) and waits until the node has registered with its memory.
     *
     * @param containerClasspath the classpath of every container (application masters and tasks)
     */
    public static YarnCluster start(Path dir, Path daemonLib, String containerClasspath, int taskContainers,
            long taskContainerMb, long amContainerMb) throws IOException, InterruptedException {
        if (!Files.isDirectory(daemonLib)) {
            throw new IllegalStateException("No YARN daemons in " + daemonLib + ": build the hadoop-daemons module "
                    + "(bin/setup)");
        }
        Path root = dir.toAbsolutePath();
        FileUtil.fullyDelete(root.toFile());
        Path conf = Files.createDirectories(root.resolve("conf"));
        Path logs = Files.createDirectories(root.resolve("logs"));
        long nodeMemoryMb = amContainerMb + taskContainers * taskContainerMb;

        Map<String, String> client = new LinkedHashMap<>();
        client.put(YarnConfiguration.RM_ADDRESS, "127.0.0.1:" + freePort());
        client.put(YarnConfiguration.RM_SCHEDULER_ADDRESS, "127.0.0.1:" + freePort());
        client.put(YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS, "127.0.0.1:" + freePort());
        client.put(YarnConfiguration.RM_ADMIN_ADDRESS, "127.0.0.1:" + freePort());
        client.put(YarnConfiguration.RM_WEBAPP_ADDRESS, "127.0.0.1:" + freePort());
        client.put(YarnConfiguration.YARN_APPLICATION_CLASSPATH, conf + File.pathSeparator + containerClasspath);

        Map<String, String> addresses = new LinkedHashMap<>(client);
        addresses.put(YarnConfiguration.RM_HOSTNAME, "127.0.0.1");
        addresses.put(YarnConfiguration.NM_ADDRESS, "127.0.0.1:" + freePort());
        addresses.put(YarnConfiguration.NM_LOCALIZER_ADDRESS, "127.0.0.1:" + freePort());
        addresses.put(YarnConfiguration.NM_WEBAPP_ADDRESS, "127.0.0.1:" + freePort());
        addresses.put("mapreduce.shuffle.port", Integer.toString(freePort()));
        addresses.put("hadoop.tmp.dir", root.resolve("hadoop-tmp").toString());
        YarnSite site = new YarnSite(nodeMemoryMb, taskContainers + 1,
                Files.createDirectories(root.resolve("nm-local")).toString(),
                Files.createDirectories(root.resolve("nm-logs")).toString(),
                client.get(YarnConfiguration.YARN_APPLICATION_CLASSPATH));
        YarnSite.write(conf.resolve("yarn-site.xml"), site.yarnSite(addresses));
        YarnSite.write(conf.resolve("core-site.xml"), Map.of("fs.defaultFS", "file:///"));
        YarnSite.write(conf.resolve("capacity-scheduler.xml"), YarnSite.capacityScheduler());
        Files.writeString(conf.resolve("log4j.properties"), String.join("\n",
                "log4j.rootLogger=INFO,file",
                "log4j.appender.file=org.apache.log4j.FileAppender",
                "log4j.appender.file.File=${yarn.log.file}",
                "log4j.appender.file.layout=org.apache.log4j.PatternLayout",
                "log4j.appender.file.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n", ""));

        YarnCluster cluster = new YarnCluster(root, client);
        Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
        try {
            cluster.startDaemon("resourcemanager",
                    "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager", conf, daemonLib, logs);
            cluster.startDaemon("nodemanager",
                    "org.apache.hadoop.yarn.server.nodemanager.NodeManager", conf, daemonLib, logs);
            cluster.awaitNode(nodeMemoryMb);
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /** The settings a YARN client (Hive's Tez session) needs to reach this cluster. */
    public Map<String, String> clientSettings() {
        return clientSettings;
    }

    private void startDaemon(String name, String mainClass, Path conf, Path daemonLib, Path logs)
            throws IOException {
        Path javaHome = Path.of(System.getProperty("java.home"));
        Path log = logs.resolve(name + ".log");
        List<String> command = List.of(javaHome.resolve("bin/java").toString(), "-Xmx" + DAEMON_HEAP_MB + "m",
                "@" + WorkloadRunner.home().resolve("conf/jvm.args").toAbsolutePath(),
                "-Dyarn.log.file=" + log, "-Dhadoop.log.dir=" + logs, "-Dyarn.log.dir=" + logs,
                "-Dlog4j.configuration=file:" + conf.resolve("log4j.properties"),
                "-cp", conf + File.pathSeparator + daemonLib.toAbsolutePath() + "/*", mainClass);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(logs.resolve(name + ".out").toFile());
        // Containers are launched with $JAVA_HOME/bin/java, from the NodeManager's environment.
        builder.environment().put("JAVA_HOME", javaHome.toString());
        builder.environment().put("HADOOP_CONF_DIR", conf.toString());
        daemons.add(builder.start());
    }

    private void awaitNode(long nodeMemoryMb) throws IOException, InterruptedException {
        Configuration conf = new YarnConfiguration();
        clientSettings.forEach(conf::set);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        try (YarnClient yarn = HadoopReadiness.yarnClient(conf)) {
            while (true) {
                for (Process daemon : daemons) {
                    if (!daemon.isAlive()) {
                        throw new IllegalStateException("A YARN daemon exited with code " + daemon.exitValue()
                                + " while starting; see the logs in " + dir.resolve("logs"));
                    }
                }
                List<NodeReport> nodes = HadoopReadiness.runningNodeManagers(yarn);
                if (!nodes.isEmpty() && nodes.get(0).getCapability().getMemorySize() == nodeMemoryMb) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("The YARN NodeManager did not register with the "
                            + "ResourceManager within " + START_TIMEOUT.toSeconds() + " s; see the logs in "
                            + dir.resolve("logs"));
                }
                Thread.sleep(250);
            }
        }
    }

    /** The ResourceManager's and the NodeManager's processes (containers are the NodeManager's descendants). */
    public List<ProcessHandle> daemons() {
        return daemons.stream().map(Process::toHandle).toList();
    }

    /** Stops both daemons and every container they started. */
    @Override
    public void close() {
        stopDaemons();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down: the hook runs (or ran) stopDaemons.
        }
    }

    private void stopDaemons() {
        List<ProcessHandle> all = new ArrayList<>();
        for (Process daemon : daemons) {
            daemon.descendants().forEach(all::add);
            all.add(daemon.toHandle());
        }
        all.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (ProcessHandle process : all) {
            try {
                process.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                process.destroyForcibly();
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
