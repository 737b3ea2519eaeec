package org.datampi.hive.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStore;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.apache.hadoop.hive.metastore.security.HadoopThriftAuthBridge;
import org.datampi.hive.session.EmbeddedHive;
import org.datampi.hive.session.MetastoreSchema;

/**
 * The Hive Metastore (Thrift) that bin/metastore starts in the background: Hive 4.1's own {@code HiveMetaStore} over
 * a PostgreSQL database, its schema created or upgraded first by Hive's schema tool ({@link MetastoreSchema}), serving
 * the warehouse of a state directory as bin/hive-datampi's embedded default lays it out, or the site's (hive-site.xml). Clients (bin/hive-datampi,
 * bin/hiveserver2-datampi, other hosts) reach it with {@code hive.metastore.uris=thrift://HOST:PORT}.
 *
 * <p>It runs what Hive's standalone metastore runs beside its Thrift service (the transaction housekeeping, the
 * compactor's Initiator and Cleaner) and one compactor Worker, whose compactions run on Hive on MR in this JVM, as a
 * standalone metastore's do: a shell has no HiveServer2 to run Workers in.
 *
 * <p>Why not HiveMetaStore's own main: it takes its settings from site files or as --hiveconf pairs on the command
 * line, where the database password would show in the process list. Here the password comes from a file and every
 * setting reaches the configurations Hive creates by itself (its threads make their own from the JVM's system
 * properties, as MetastoreConf.newMetastoreConf and HiveConf read them); this JVM runs nothing else.
 */
public final class MetastoreServer {
    private static final String USAGE = """
            Usage: metastore-server --port N --warehouse STATE --database-url JDBC_URL --database-user USER \
            --password-file FILE
              --port N               the Thrift port
              --warehouse STATE      the state directory whose warehouse it serves (warehouse/, warehouse-external/)
              --database-url URL     the PostgreSQL database (jdbc:postgresql://127.0.0.1:5432/metastore)
              --database-user USER   its owner
              --password-file FILE   the user's password, alone in the file""";
    private static final String POSTGRES_DRIVER = "org.postgresql.Driver";
    /** Of the embedded default's settings, those that make an embedded metastore (or a session) and not a server. */
    private static final Set<String> EMBEDDED_ONLY = Set.of("javax.jdo.option.ConnectionURL",
            "datanucleus.schema.autoCreateAll", "hive.metastore.schema.verification", "hive.metastore.uris",
            "hive.semantic.analyzer.hook", "hive.execution.engine", "hive.compactor.worker.threads");

    private MetastoreServer() {
    }

    public static void main(String[] args) throws Throwable {
        Map<String, String> options = new LinkedHashMap<>();
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "-h", "--help" -> {
                        System.out.println(USAGE);
                        return;
                    }
                    case "--port", "--warehouse", "--database-url", "--database-user", "--password-file" ->
                        options.put(args[i], HiveDatampiCli.Options.value(args, ++i, args[i - 1]));
                    default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'");
                }
            }
            for (String required : Set.of("--port", "--warehouse", "--database-url", "--database-user",
                    "--password-file")) {
                if (!options.containsKey(required)) {
                    throw new IllegalArgumentException(required + " is required");
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println("metastore-server: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
        }
        int port = HiveDatampiCli.Options.port(options.get("--port"), "--port");
        Path state = Path.of(options.get("--warehouse")).toAbsolutePath();
        String password = Files.readString(Path.of(options.get("--password-file")), StandardCharsets.UTF_8).strip();
        System.setProperty(HiveDatampiCli.LOG_DIR_PROPERTY, state.resolve("logs").toString());
        System.setProperty("hive.datampi.log.name", "metastore");

        Map<String, String> settings = settings(state, options.get("--database-url"), options.get("--database-user"),
                password);
        settings.forEach(System::setProperty);
        Configuration conf = MetastoreConf.newMetastoreConf();
        // Those that are neither Hive's nor the metastore's names (hikaricp.*), which system properties do not reach.
        settings.forEach(conf::set);
        MetastoreSchema.initOrUpgrade(conf, new MetastoreSchema.Database("postgres", options.get("--database-url"),
                POSTGRES_DRIVER, options.get("--database-user"), password), System.err);
        System.err.println("metastore-server: Hive Metastore listens on thrift://localhost:" + port + " (database "
                + options.get("--database-url") + ", warehouse " + state.resolve("warehouse") + ", log "
                + state.resolve("logs/metastore.log") + ")");
        // Serves until the JVM is stopped (bin/metastore stop: SIGTERM).
        HiveMetaStore.startMetaStore(port, HadoopThriftAuthBridge.getBridge(), conf, true, null);
    }

    /**
     * The server's settings over the PostgreSQL database: the embedded default's warehouse and local Hadoop, where a
     * site's hive-site.xml (HIVE_CONF_DIR: bin/cluster-sim's, a warehouse in HDFS) does not set them.
     */
    static Map<String, String> settings(Path state, String url, String user, String password) {
        Map<String, String> settings = new LinkedHashMap<>();
        EmbeddedHive.settingsUnder(new HiveConf(), state).forEach((key, value) -> {
            if (!EMBEDDED_ONLY.contains(key)) {
                settings.put(key, value);
            }
        });
        settings.put("javax.jdo.option.ConnectionURL", url);
        settings.put("javax.jdo.option.ConnectionDriverName", POSTGRES_DRIVER);
        settings.put("javax.jdo.option.ConnectionUserName", user);
        settings.put("javax.jdo.option.ConnectionPassword", password);
        // A lost database fails a client's call in some 15 seconds, where a statement waited minutes: a connection
        // is waited for 3 s (the pool's default is 30 s; PostgreSQL on the loopback connects in milliseconds, so the
        // wait is for a pool whose connections are all in use), and a failed call is tried once more after 1 s
        // (Hive's default: 10 times more, 2 s apart, for a database that fails over). Each try waits twice.
        settings.put("hikaricp.connectionTimeout", "3000");
        settings.put("hive.hmshandler.retry.attempts", "1");
        settings.put("hive.hmshandler.retry.interval", "1000ms");
        // A failed call names the database when it is lost, where Hive would answer "table not found".
        settings.put("metastore.hmshandler.proxy", DatabaseNamingHMSHandler.class.getName());
        // The schema is the schema tool's: checked, never made by DataNucleus.
        settings.put("datanucleus.schema.autoCreateAll", "false");
        settings.put("hive.metastore.schema.verification", "true");
        // One metastore: it runs the housekeeping and the compactor without electing itself through Hive's locks
        // (Hive's default, "lock", keeps three locks for it that every SHOW LOCKS lists beside the users').
        settings.put("metastore.housekeeping.leader.election", "host");
        // The compactor as a standalone metastore runs it, and its Worker here (see the class comment).
        settings.put("hive.compactor.initiator.on", "true");
        settings.put("hive.compactor.cleaner.on", "true");
        settings.put("hive.metastore.runworker.in", "metastore");
        settings.put("hive.compactor.worker.threads", "1");
        settings.put("hive.execution.engine", "mr");
        return settings;
    }
}
