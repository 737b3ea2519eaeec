package org.datampi.hive.session;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.tools.schematool.MetastoreSchemaTool;
import org.apache.hadoop.hive.metastore.utils.MetastoreVersionInfo;

/**
 * A metastore database's schema, created or upgraded by Hive's own schema tool ({@code MetastoreSchemaTool}, what
 * {@code schematool -initOrUpgradeSchema} runs) with the SQL scripts of Hive's release: every table, index and row
 * Hive's metastore needs, the transaction tables that DbTxnManager's handler uses among them (DataNucleus's schema
 * generation from {@code package.jdo} makes none of these).
 *
 * <p>The scripts are those Hive's binary tarball has under {@code scripts/metastore/upgrade}; the build takes them
 * from Hive's source release on Maven Central into this jar ({@value #SCRIPTS}, see the pom). The schema tool reads
 * them from a directory: when the jar is not unpacked (bin/ and the ranks run from target/*.jar), they are copied out
 * into a temporary directory once per JVM.
 */
public final class MetastoreSchema {
    /** Where the build puts the scripts on the classpath: a metastore home, as the schema tool expects one. */
    static final String SCRIPTS = "hive-metastore";
    private static Path home;

    private MetastoreSchema() {
    }

    /** A metastore database the schema tool connects to: its kind (Hive's dbType: derby, postgres) and JDBC login. */
    public record Database(String type, String url, String driver, String user, String password) {
        public Database {
            requireNonNull(type, "type is null");
            requireNonNull(url, "url is null");
            requireNonNull(driver, "driver is null");
            requireNonNull(user, "user is null");
            requireNonNull(password, "password is null");
        }

        /** Where it is, for messages: the URL without its options. */
        String where() {
            int options = url.indexOf(';', url.indexOf(":;") + 2);
            return options < 0 ? url : url.substring(0, options);
        }
    }

    /**
     * Creates the schema of this Hive version in DATABASE when it has none, or upgrades an older one (Hive's
     * {@code -initOrUpgradeSchema}). What the schema tool and its SqlLine print (each statement of the script) is
     * kept, and goes to PROGRESS only when the tool fails; else PROGRESS gets one line. Fails naming the database.
     */
    public static void initOrUpgrade(Configuration conf, Database database, PrintStream progress) {
        requireNonNull(conf, "conf is null");
        requireNonNull(database, "database is null");
        requireNonNull(progress, "progress is null");
        String[] arguments = {"-initOrUpgradeSchema", "-dbType", database.type(), "-url", database.url(),
            "-driver", database.driver(), "-userName", database.user(), "-passWord", database.password()};
        int status;
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        // The tool and SqlLine print with System.out and System.err (stdout is a query's): both swapped for a buffer
        // while it runs, in this one place.
        synchronized (System.class) {
            PrintStream stdout = System.out;
            PrintStream stderr = System.err;
            PrintStream buffer = new PrintStream(output, true, StandardCharsets.UTF_8);
            System.setOut(buffer);
            System.setErr(buffer);
            try {
                status = new MetastoreSchemaTool().run(home().toString(), arguments, null, conf);
            } finally {
                System.setOut(stdout);
                System.setErr(stderr);
            }
        }
        if (status != 0) {
            progress.print(output.toString(StandardCharsets.UTF_8));
            throw new IllegalStateException("Hive's schema tool could not create or upgrade the metastore schema in "
                    + database.where() + " (" + database.type() + "; what it printed is above)");
        }
        progress.println("Metastore schema of Hive " + MetastoreVersionInfo.getVersion() + " in " + database.where()
                + " (Hive's schema tool, " + database.type() + ")");
    }

    /** The metastore home holding scripts/metastore/upgrade/DBTYPE: on the classpath, or copied out of the jar. */
    static synchronized Path home() {
        if (home == null) {
            home = locate();
        }
        return home;
    }

    private static Path locate() {
        URL marker = MetastoreSchema.class.getClassLoader().getResource(SCRIPTS + "/scripts/metastore/upgrade");
        if (marker == null) {
            throw new IllegalStateException("Hive's metastore scripts (" + SCRIPTS + ") are not on the classpath: "
                    + "this hive-datampi-engine jar was not built by its pom (run bin/setup)");
        }
        try {
            URI uri = marker.toURI();
            if ("file".equals(uri.getScheme())) {
                return Path.of(uri).getParent().getParent().getParent();
            }
            Path copy = Files.createTempDirectory("hive-metastore-scripts");
            try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of());
                    Stream<Path> files = Files.walk(jar.getPath(SCRIPTS))) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    Path target = copy.resolve(jar.getPath(SCRIPTS).relativize(file).toString());
                    Files.createDirectories(target.getParent());
                    Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
            deleteOnExit(copy);
            return copy;
        } catch (URISyntaxException e) {
            throw new IllegalStateException("Cannot locate Hive's metastore scripts at " + marker, e);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot copy Hive's metastore scripts out of " + marker, e);
        }
    }

    private static void deleteOnExit(Path dir) throws IOException {
        // File.deleteOnExit deletes in reverse order of registration: directories first registered, deleted last.
        try (Stream<Path> paths = Files.walk(dir)) {
            List<Path> all = paths.toList();
            all.forEach(path -> path.toFile().deleteOnExit());
        }
    }
}
