package org.datampi.bench.harness;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;

/**
 * Whether a cluster's Hadoop daemons are up, asked through Hadoop's own clients: DataNodes live in HDFS (the
 * NameNode's report), NodeManagers running in YARN (the ResourceManager's). bin/cluster-sim waits with {@link #main};
 * {@link YarnCluster} asks {@link #runningNodeManagers}.
 */
public final class HadoopReadiness {
    private static final long POLL_MILLIS = 500;

    private HadoopReadiness() {
    }

    /**
     * {@code HadoopReadiness hdfs|yarn COUNT SECONDS}, with the cluster's configuration on the classpath: waits until
     * COUNT DataNodes are live (hdfs) or COUNT NodeManagers run (yarn); exit status 0 then, else 1 after SECONDS with
     * how many there were, on standard error.
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 3 || !List.of("hdfs", "yarn").contains(args[0])) {
            System.err.println("Usage: HadoopReadiness hdfs|yarn COUNT SECONDS");
            System.exit(2);
        }
        int wanted = Integer.parseInt(args[1]);
        Duration within = Duration.ofSeconds(Long.parseLong(args[2]));
        int up = args[0].equals("hdfs") ? awaitDataNodes(wanted, within) : awaitNodeManagers(wanted, within);
        if (up < wanted) {
            System.err.println(args[0].equals("hdfs")
                    ? "HDFS did not come up within " + within.toSeconds() + " s (" + up + " of " + wanted
                            + " DataNodes live)"
                    : "YARN did not come up within " + within.toSeconds() + " s (" + up + " of " + wanted
                            + " NodeManagers running)");
            System.exit(1);
        }
    }

    private static int awaitDataNodes(int wanted, Duration within) throws InterruptedException {
        Configuration conf = new HdfsConfiguration();
        // Ask once and come back here: until the NameNode listens, each ask fails fast.
        conf.setInt("ipc.client.connect.max.retries", 0);
        long deadline = System.nanoTime() + within.toNanos();
        int live = 0;
        while (true) {
            try (FileSystem fs = FileSystem.newInstance(conf)) {
                live = ((DistributedFileSystem) fs).getDataNodeStats(DatanodeReportType.LIVE).length;
            } catch (IOException e) {
                // The NameNode is not listening yet.
            }
            if (live >= wanted || System.nanoTime() > deadline) {
                return live;
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
        }
    }

    private static int awaitNodeManagers(int wanted, Duration within) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + within.toNanos();
        try (YarnClient yarn = yarnClient(new YarnConfiguration())) {
            while (true) {
                int running = runningNodeManagers(yarn).size();
                if (running >= wanted || System.nanoTime() > deadline) {
                    return running;
                }
                TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
            }
        }
    }

    /**
     * YARN's client over CONF, started, which asks the ResourceManager once where its default retries for 15 minutes:
     * a caller that polls comes back to its own loop, and notices a daemon that died.
     */
    static YarnClient yarnClient(Configuration conf) {
        conf.set(YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS, "1000");
        conf.set(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, "250");
        YarnClient yarn = YarnClient.createYarnClient();
        yarn.init(conf);
        yarn.start();
        return yarn;
    }

    /** The NodeManagers the ResourceManager has running; none while it does not answer yet. */
    static List<NodeReport> runningNodeManagers(YarnClient yarn) {
        try {
            return yarn.getNodeReports(NodeState.RUNNING);
        } catch (YarnException | IOException e) {
            return List.of();
        }
    }
}
