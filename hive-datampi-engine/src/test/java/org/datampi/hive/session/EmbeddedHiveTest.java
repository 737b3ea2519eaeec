package org.datampi.hive.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.apache.hadoop.hive.conf.HiveConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedHiveTest {
    /** A site's file (a cluster's core-site.xml in HIVE_CONF_DIR) keeps its settings; the rest is the default's. */
    @Test
    void aSitesFileWinsOverTheEmbeddedDefault(@TempDir Path dir) throws Exception {
        Path core = Files.writeString(dir.resolve("core-site.xml"), "<configuration><property><name>fs.defaultFS"
                + "</name><value>hdfs://namenode:9000</value></property></configuration>");
        HiveConf site = new HiveConf();
        site.addResource(new org.apache.hadoop.fs.Path(core.toUri()));
        Path state = dir.resolve("state");

        Map<String, String> settings = EmbeddedHive.settingsUnder(site, state);

        assertFalse(settings.containsKey("fs.defaultFS"), "the site's file system stays: " + settings);
        assertEquals(state.toAbsolutePath().resolve("warehouse").toString(),
                settings.get("hive.metastore.warehouse.dir"), "what the site does not set is the default's");
        assertEquals(EmbeddedHive.settings(state).size() - 1, settings.size());
    }
}
