package org.datampi.hive.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.Optional;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.junit.jupiter.api.Test;

class DatabaseNamingHMSHandlerTest {
    @Test
    void aDatabaseThatRefusesConnectionsIsNamedWithTheCause() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String url = "jdbc:postgresql://127.0.0.1:" + closedPort + "/metastore";
        Configuration conf = MetastoreConf.newMetastoreConf();
        conf.set("javax.jdo.option.ConnectionURL", url);
        conf.set("javax.jdo.option.ConnectionUserName", "hive");
        conf.set("javax.jdo.option.ConnectionPassword", "unused");

        Optional<String> unreachable = DatabaseNamingHMSHandler.unreachable(conf);

        assertTrue(unreachable.isPresent(), "a closed port was taken for a database");
        assertTrue(unreachable.get().startsWith("The Hive Metastore's database " + url + " cannot be reached: "),
                unreachable.get());
        assertTrue(unreachable.get().contains("Connection refused"), unreachable.get());
    }
}
