package org.datampi.bench.harness;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The YARN settings of this project's clusters, in one place: a NodeManager that offers exactly its task containers
 * and one application master, whose containers' heap is their whole size, whose outputs MapReduce's ShuffleHandler
 * serves (as on a Hadoop cluster), and a capacity scheduler with room for the AM on a node this small. The
 * benchmarks' one-node YARN ({@link YarnCluster}) and bin/cluster-sim's YARN across hosts ({@link #main}) add only
 * their addresses and directories.
 *
 * @param nodeMemoryMb the NodeManager's memory: its task containers' and one AM's
 * @param vcores its cores: its task containers' and one for the AM
 * @param localDirs its containers' local files
 * @param logDirs its containers' logs
 * @param classpath the containers' classpath (yarn.application.classpath)
 */
public record YarnSite(long nodeMemoryMb, int vcores, String localDirs, String logDirs, String classpath) {
    public YarnSite {
        requireNonNull(localDirs, "localDirs is null");
        requireNonNull(logDirs, "logDirs is null");
        requireNonNull(classpath, "classpath is null");
    }

    /** yarn-site.xml's settings, with EXTRA (addresses, host names) after them. */
    public Map<String, String> yarnSite(Map<String, String> extra) {
        Map<String, String> site = new LinkedHashMap<>();
        site.put(YarnConfiguration.NM_PMEM_MB, Long.toString(nodeMemoryMb));
        site.put(YarnConfiguration.NM_VCORES, Integer.toString(vcores));
        site.put(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, "128");
        site.put(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, Long.toString(nodeMemoryMb));
        // A container's heap is its whole size (as a datampi rank's heap is its -Xmx): no kill for the JVM's overhead.
        site.put(YarnConfiguration.NM_PMEM_CHECK_ENABLED, "false");
        site.put(YarnConfiguration.NM_VMEM_CHECK_ENABLED, "false");
        site.put(YarnConfiguration.NM_LOCAL_DIRS, localDirs);
        site.put(YarnConfiguration.NM_LOG_DIRS, logDirs);
        site.put(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, "99.9");
        site.put(YarnConfiguration.DEBUG_NM_DELETE_DELAY_SEC, "0");
        site.put(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, "250");
        site.put(YarnConfiguration.NM_RECOVERY_ENABLED, "false");
        site.put(YarnConfiguration.TIMELINE_SERVICE_ENABLED, "false");
        // The NodeManager serves task outputs through MapReduce's ShuffleHandler, as on a Hadoop cluster: MapReduce's
        // reducers and Tez's ordered inputs fetch through the aux service "mapreduce_shuffle".
        site.put(YarnConfiguration.NM_AUX_SERVICES, "mapreduce_shuffle");
        site.put("yarn.nodemanager.aux-services.mapreduce_shuffle.class", "org.apache.hadoop.mapred.ShuffleHandler");
        site.put(YarnConfiguration.YARN_APPLICATION_CLASSPATH, classpath);
        site.putAll(extra);
        return site;
    }

    /** capacity-scheduler.xml's settings: one queue; the default AM share (0.1) would leave no room for an AM. */
    public static Map<String, String> capacityScheduler() {
        return Map.of(
                "yarn.scheduler.capacity.root.queues", "default",
                "yarn.scheduler.capacity.root.default.capacity", "100",
                "yarn.scheduler.capacity.root.default.maximum-capacity", "100",
                "yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
    }

    /**
     * {@code YarnSite DIR NODE_MB VCORES LOCAL_DIRS LOG_DIRS CLASSPATH [NAME=VALUE...]}: writes DIR/yarn-site.xml (with
     * the extra settings) and DIR/capacity-scheduler.xml.
     */
    public static void main(String[] args) {
        if (args.length < 6) {
            System.err.println("Usage: YarnSite DIR NODE_MB VCORES LOCAL_DIRS LOG_DIRS CLASSPATH [NAME=VALUE...]");
            System.exit(2);
        }
        YarnSite site = new YarnSite(Long.parseLong(args[1]), Integer.parseInt(args[2]), args[3], args[4], args[5]);
        Map<String, String> extra = new LinkedHashMap<>();
        for (String setting : List.of(args).subList(6, args.length)) {
            int equals = setting.indexOf('=');
            if (equals <= 0) {
                System.err.println("YarnSite: '" + setting + "' is not NAME=VALUE");
                System.exit(2);
            }
            extra.put(setting.substring(0, equals), setting.substring(equals + 1));
        }
        Path dir = Path.of(args[0]);
        write(dir.resolve("yarn-site.xml"), site.yarnSite(extra));
        write(dir.resolve("capacity-scheduler.xml"), capacityScheduler());
    }

    /** Writes PROPERTIES as a Hadoop configuration file. */
    static void write(Path file, Map<String, String> properties) {
        Configuration conf = new Configuration(false);
        properties.forEach(conf::set);
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            conf.writeXml(out);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }
}
