package org.datampi.hive.session;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.hadoop.hive.conf.HiveConf;
import org.datampi.hive.conf.DataMPISettings;
import org.datampi.hive.fs.PosixLocalFileSystem;
import org.datampi.hive.plan.DataMPICompiler;

/**
 * The embedded default: Hive 4.1 with a Derby metastore and a local warehouse under one state directory, the local
 * file system, and datampi as the engine. Settings given by the user win over these: a site's hive-site.xml (in
 * HIVE_CONF_DIR, first on bin/hive-datampi's classpath; a cluster's puts the warehouse in HDFS) and then --hiveconf.
 */
public final class EmbeddedHive {
    /** How Hadoop's and Hive's site files end (hive-site.xml, core-site.xml...), as the sources of their settings. */
    private static final String SITE_FILES = "-site.xml";

    private EmbeddedHive() {
    }

    /** A HiveConf for the state directory: the site's hive-site.xml over the embedded default, USER_SETTINGS last. */
    public static HiveConf configuration(Path stateDir, Map<String, String> userSettings) {
        HiveConf conf = new HiveConf(EmbeddedHive.class);
        settingsUnder(conf, stateDir).forEach(conf::set);
        userSettings.forEach(conf::set);
        return conf;
    }

    /**
     * The embedded default's settings for the state directory that SITE (a HiveConf as Hive loaded it) does not take
     * from a site's file: those a hive-site.xml, core-site.xml or mapred-site.xml sets (in HIVE_CONF_DIR, first on
     * the classpath) are the site's own.
     */
    public static Map<String, String> settingsUnder(HiveConf site, Path stateDir) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings(stateDir).forEach((key, value) -> {
            String[] sources = site.getPropertySources(key);
            if (sources == null || Arrays.stream(sources).noneMatch(source -> source.endsWith(SITE_FILES))) {
                settings.put(key, value);
            }
        });
        return settings;
    }

    /** The embedded default's settings for the state directory. */
    public static Map<String, String> settings(Path stateDir) {
        requireNonNull(stateDir, "stateDir is null");
        Path state = stateDir.toAbsolutePath();
        return Map.ofEntries(
                Map.entry("javax.jdo.option.ConnectionURL", EmbeddedMetastore.url(state)),
                Map.entry("datanucleus.schema.autoCreateAll", "true"),
                Map.entry("hive.metastore.schema.verification", "false"),
                Map.entry("hive.metastore.uris", ""),
                // Direct SQL stays on (Hive's default): it alone aggregates the column statistics of a table's
                // partitions for the planner, so without it a partitioned table reaches CBO with none. It needs every
                // metastore table in place from the start: EmbeddedMetastore.prepare.
                Map.entry("hive.metastore.try.direct.sql", "true"),
                // Where the metastore does fall back to its ORM, it reads partitions by name in one query of one OR
                // term each, which overflows Derby's parser stack from some thousand partitions on (TPC-DS's fact
                // tables partitioned by date have 1,800 or more): batches of 300 names, as Hive's own tests run it.
                Map.entry("metastore.rawstore.batch.size", "300"),
                // Direct SQL splits each IN list and each multi-row INSERT into batches of this many. Derby needs
                // INSERTs batched: its compiler binds VALUES rows recursively, and one INSERT adding 1,800
                // partitions' 14,000 parameter rows overflows a thread's stack (4,000 rows do, 2,000 do not). Reads
                // must not be batched below a table's partition count: Hive 4.1.0 does not merge the batches of
                // get_aggr_stats_for (HIVE-29203), and the planner would get the statistics of the first batch of
                // partitions (store_sales' ss_customer_sk at scale 1: 109 distinct values instead of 43,160).
                // 2,000 is above the partitions of any TPC-DS table (1,823 days).
                Map.entry("metastore.direct.sql.batch.size", "2000"),
                // Re-execution statistics kept "in the metastore" are loaded by a thread whose fresh HiveConf points
                // at Hive's default ./metastore_db, creating a second Derby database in the working directory.
                Map.entry("hive.query.reexecution.stats.persist.scope", "hiveserver"),
                // A compactor Worker in the JVM that owns the embedded metastore (Hive's default, 0, leaves
                // ALTER TABLE ... COMPACT queued for ever): EmbeddedTxnServices in a shell, Hive's own in HiveServer2.
                Map.entry("hive.compactor.worker.threads", "1"),
                // It looks for queued compactions every second (Hive's 10.8 s suits many servers sharing a database;
                // here one JVM polls its own Derby).
                Map.entry("hive.compactor.worker.sleep.time", "1000ms"),
                // What the session's metastore client says it can read and write: HiveServer2's list (HiveConf sets
                // it only in a HiveServer2 process; Hive 4's own shell is Beeline over an embedded HiveServer2). With
                // none, the metastore refuses to create transactional tables ("Processor has no capabilities").
                Map.entry("hive.metastore.client.capabilities", "EXTWRITE,EXTREAD,HIVEBUCKET2,HIVEFULLACIDREAD,"
                        + "HIVEFULLACIDWRITE,HIVECACHEINVALIDATE,HIVEMANAGESTATS,HIVEMANAGEDINSERTWRITE,"
                        + "HIVEMANAGEDINSERTREAD,HIVESQL,HIVEMQT,HIVEONLYMQTWRITE,ACCEPTS_UNMODIFIED_METADATA"),
                // Materialized views for query rewriting read from the metastore as each query compiles: Hive's
                // registry that caches them is loaded only by HiveServer2's start (a shell's would stay empty and
                // rewrite nothing), and loading it there delays the start by every view's plan.
                Map.entry("hive.server2.materializedviews.registry.impl", "DUMMY"),
                Map.entry("fs.defaultFS", "file:///"),
                // Owners and permissions of local files without a forked ls -ld per file (PosixLocalFileSystem):
                // Hive's listings of a partitioned table read them for every partition. The ranks get it with the job.
                Map.entry("fs.file.impl", PosixLocalFileSystem.class.getName()),
                Map.entry("hive.metastore.warehouse.dir", state.resolve("warehouse").toString()),
                Map.entry("hive.metastore.warehouse.external.dir", state.resolve("warehouse-external").toString()),
                Map.entry("hive.exec.scratchdir", state.resolve("scratch").toString()),
                Map.entry("hive.exec.local.scratchdir", state.resolve("local-scratch").toString()),
                // One directory per session, as Hive's default: a session's close deletes its directory, and a shared
                // one made HiveServer2 fail other sessions as they opened (createPath of a directory just deleted).
                Map.entry("hive.downloaded.resources.dir", state.resolve("resources") + "/${hive.session.id}_resources"),
                Map.entry("hive.querylog.location", state.resolve("query-log").toString()),
                Map.entry("hive.query.results.cache.directory", state.resolve("results-cache").toString()),
                Map.entry("mapreduce.jobtracker.staging.root.dir", state.resolve("staging").toString()),
                Map.entry("mapreduce.cluster.local.dir", state.resolve("mapred-local").toString()),
                Map.entry("hadoop.tmp.dir", state.resolve("hadoop-tmp").toString()),
                // Hive on MR in this JVM (the mr engine and map-join local tasks) runs locally, never via /usr/bin/hadoop.
                Map.entry("mapreduce.framework.name", "local"),
                Map.entry("hive.exec.submit.local.task.via.child", "false"),
                Map.entry("hive.exec.submitviachild", "false"),
                Map.entry("hive.exec.mode.local.auto", "false"),
                Map.entry("mapreduce.job.counters.max", "1000"),
                Map.entry("hive.execution.engine", DataMPISettings.ENGINE),
                Map.entry("hive.semantic.analyzer.hook", DataMPICompiler.class.getName()));
    }
}
