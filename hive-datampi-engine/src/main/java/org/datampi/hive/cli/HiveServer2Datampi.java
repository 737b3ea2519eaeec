package org.datampi.hive.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hive.service.server.HiveServer2;
import org.datampi.hive.plan.DataMPIEngine;
import org.datampi.hive.session.DataMPISessionHook;
import org.datampi.hive.session.EmbeddedHive;
import org.datampi.hive.session.EmbeddedMetastore;
import org.datampi.hive.session.EmbeddedTxnServices;

/**
 * bin/hiveserver2-datampi: Hive's own HiveServer2 (hive-service 4.0.1, the last published, over hive-exec 4.1.0) in the
 * foreground, on the embedded default of bin/hive-datampi (the same metastore, warehouse and settings under one state
 * directory), with datampi installed before the first session so that a JDBC URL or a SET may choose it.
 *
 * <p>Why not HiveServer2's own main: it retries a failed start 30 times a minute apart, re-initializes logging from
 * Hive's bundled configuration (asynchronous, needing a jar the engine does not ship), and takes the embedded
 * settings only as --hiveconf pairs. Those have to reach every HiveConf that HiveServer2 creates by itself (the
 * materialized-view registry, pollers), which is what HiveConf's JVM-wide overrides are for; this JVM runs nothing
 * else.
 */
public final class HiveServer2Datampi {
    /** A small server on one machine: no web UI, no background services a Derby metastore would only slow down. */
    private static final Map<String, String> SERVER_SETTINGS = Map.ofEntries(
            Map.entry("hive.server2.thrift.bind.host", "localhost"),
            Map.entry("hive.server2.transport.mode", "binary"),
            Map.entry("hive.server2.webui.port", "0"),
            Map.entry("hive.server2.enable.doAs", "false"),
            Map.entry("hive.server2.session.hook", DataMPISessionHook.class.getName()),
            Map.entry("hive.llap.hs2.coordinator.enabled", "false"),
            Map.entry("hive.scheduled.queries.executor.enabled", "false"),
            Map.entry("hive.notification.event.poll.interval", "0s"),
            Map.entry("hive.server2.graceful.stop.timeout", "0s"),
            // HiveServer2 4.0.1's compactor set-up calls a HiveConf method that Hive 4.1 no longer has; compaction
            // workers run "in the metastore" instead: the embedded one's, EmbeddedTxnServices.
            Map.entry("hive.metastore.runworker.in", "metastore"),
            Map.entry("hive.server2.async.exec.threads", "8"),
            Map.entry("hive.server2.thrift.max.worker.threads", "32"));
    private static final String USAGE = """
            Usage: hiveserver2-datampi [options]
              --port N                 the Thrift (binary) port (default 10000)
              --hiveconf KEY=VALUE     a Hive setting for every session (repeatable)
              --warehouse DIR          the state directory: metastore, warehouse, scratch, logs
                                       (default $HIVE_DATAMPI_STATE, else $DATAMPI_HOME/state)
              -h, --help               this help""";

    private HiveServer2Datampi() {
    }

    public static void main(String[] args) throws Exception {
        int port = 10000;
        String warehouse = null;
        Map<String, String> settings = new LinkedHashMap<>();
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "-h", "--help" -> {
                        System.out.println(USAGE);
                        return;
                    }
                    case "--port" -> port = HiveDatampiCli.Options.port(
                            HiveDatampiCli.Options.value(args, ++i, "--port"), "--port");
                    case "--warehouse" -> warehouse = HiveDatampiCli.Options.value(args, ++i, "--warehouse");
                    case "--hiveconf" -> HiveDatampiCli.Options.hiveconf(
                            HiveDatampiCli.Options.value(args, ++i, "--hiveconf"), settings);
                    default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'");
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println("hiveserver2-datampi: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
        }
        Path state = HiveDatampiCli.Options.stateDir(warehouse).toAbsolutePath();
        System.setProperty(HiveDatampiCli.LOG_DIR_PROPERTY, state.resolve("logs").toString());
        System.setProperty("hive.datampi.log.name", "hiveserver2-datampi");

        Map<String, String> overrides = new LinkedHashMap<>(EmbeddedHive.settingsUnder(new HiveConf(), state));
        overrides.putAll(SERVER_SETTINGS);
        overrides.put("hive.server2.thrift.port", Integer.toString(port));
        overrides.put("hive.server2.logging.operation.log.location", state.resolve("operation-logs").toString());
        overrides.putAll(settings);
        HiveConf.overrides.putAll(overrides);
        HiveConf serverConf = new HiveConf();
        EmbeddedMetastore.configureDerby(state);
        EmbeddedMetastore.prepare(serverConf, state);
        // A server whose site names DbTxnManager: the compactor and the transaction housekeeping that a standalone
        // metastore would run.
        EmbeddedTxnServices.startFor(serverConf, true);
        // Before the first session: its JDBC URL's settings are applied before the session hook runs.
        DataMPIEngine.install(serverConf);

        HiveServer2 server = new HiveServer2();
        server.init(new HiveConf());
        server.start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop();
            stopped.countDown();
        }, "hiveserver2-datampi-stop"));
        System.err.println("hiveserver2-datampi: HiveServer2 listens on jdbc:hive2://"
                + serverConf.get("hive.server2.thrift.bind.host", "localhost") + ":" + port
                + "/default (state " + state + ", log " + state.resolve("logs/hiveserver2-datampi.log") + ")");
        stopped.await();
    }
}
