package org.datampi.bench.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.apache.hive.common.util.HiveVersionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QfileTest {
    private static final HiveTestJars NO_TEST_JARS = HiveTestJars.none(Path.of("target/no-hive-test-jars"));

    @Test
    void directivesGiveTheDatasetsTheSortingTheTimeZoneAndTheTransactionManager() {
        Qfile qfile = Qfile.parse("groupby.q", """
                --! qt:dataset:src
                --! qt:dataset:src1,srcpart:ONLY
                --! qt:timezone:Asia/Tokyo
                --! qt:transactional
                -- SORT_QUERY_RESULTS
                CREATE TABLE dest (k INT, v STRING);
                -- a comment; with a semicolon
                INSERT OVERWRITE TABLE dest SELECT key, value FROM src WHERE value <> ';';
                SELECT * FROM dest
                """, NO_TEST_JARS);
        assertEquals(List.of("src", "src1", "srcpart"), qfile.datasets());
        assertTrue(qfile.onlyItsDatasets());
        assertTrue(qfile.transactional());
        assertTrue(qfile.sortResults());
        assertEquals(Optional.of("Asia/Tokyo"), qfile.timeZone());
        assertEquals(List.of("CREATE TABLE dest (k INT, v STRING)",
                "INSERT OVERWRITE TABLE dest SELECT key, value FROM src WHERE value <> ';'", "SELECT * FROM dest"),
                qfile.statements());
        assertEquals(Optional.empty(), qfile.exclusion());
    }

    @Test
    void filesThatNeedAnotherSystemAreExcludedForGood() {
        assertExcluded("--! qt:disabled:flaky HIVE-1\nSELECT 1;", Qfile.Kind.EXCLUDED, "disabled by Hive (qt:disabled)");
        assertExcluded("CREATE EXTERNAL TABLE t (a INT) STORED BY\n"
                + "'org.apache.hive.storage.jdbc.JdbcStorageHandler';", Qfile.Kind.EXCLUDED, "an external JDBC database");
        assertExcluded("CREATE TABLE t (a INT) STORED BY 'org.apache.hadoop.hive.druid.DruidStorageHandler';",
                Qfile.Kind.EXCLUDED, "Druid");
        assertExcluded("CRYPTO CREATE_KEY --keyName k;", Qfile.Kind.EXCLUDED,
                "HDFS encryption or erasure coding (a MiniDFS's)");
    }

    @Test
    void filesThatNeedWhatTheHarnessDoesNotGiveYetAreNamedSo() {
        // Without Hive's test jars (HiveTestJars builds them): its test authorizer and test classes are missing.
        assertExcluded("--! qt:authorizer\nSHOW ROLES;", Qfile.Kind.NOT_YET_SUPPORTED,
                "test-only classes or jars of Hive's itests");
        assertExcluded("CREATE TEMPORARY FUNCTION f AS 'org.apache.hadoop.hive.ql.udf.generic.GenericUDFTestTranslate';",
                Qfile.Kind.NOT_YET_SUPPORTED, "test-only classes or jars of Hive's itests");
        assertExcluded("ADD JAR ${system:maven.local.repository}/org/apache/hive/hive-it-test-serde/x.jar;",
                Qfile.Kind.NOT_YET_SUPPORTED, "test-only classes or jars of Hive's itests");
        assertExcluded("CREATE TABLE t (a INT) ROW FORMAT SERDE 'org.apache.hive.hcatalog.data.JsonSerDe';",
                Qfile.Kind.NOT_YET_SUPPORTED, "test-only classes or jars of Hive's itests");
    }

    @Test
    void aClassOfHivesOwnJarsIsNoTestClass() {
        // Hive's test configuration's hooks are in hive-exec itself, and so on the sessions' classpath.
        Qfile qfile = Qfile.parse("sample10.q", "set hive.exec.pre.hooks = "
                + "org.apache.hadoop.hive.ql.hooks.PreExecutePrinter,org.apache.hadoop.hive.ql.hooks.EnforceReadOnlyTables;"
                + "\nSELECT key FROM src;", NO_TEST_JARS);
        assertEquals(Optional.empty(), qfile.exclusion());
    }

    @Test
    void aPlainFileIsACandidateUnsorted() {
        Qfile qfile = Qfile.parse("plain.q", "SELECT key FROM src ORDER BY key;", NO_TEST_JARS);
        assertEquals(Optional.empty(), qfile.exclusion());
        assertFalse(qfile.sortResults());
        assertFalse(qfile.onlyItsDatasets());
        assertFalse(qfile.transactional());
        assertEquals(List.of(), qfile.datasets());
    }

    @Test
    void aJarOfHivesTestRepositoryIsLookedForThere(@TempDir Path repository) throws IOException {
        String version = HiveVersionInfo.getVersion();
        Path jar = repository.resolve("org/apache/hive/hive-it-test-serde/" + version + "/hive-it-test-serde-"
                + version + ".jar");
        String text = "ADD JAR ${system:maven.local.repository}${system:file.separator}org/apache/hive/hive-it-test-serde"
                + "/${system:hive.version}/hive-it-test-serde-${system:hive.version}.jar;\nSELECT 1;";
        assertEquals(Optional.of(new Qfile.Exclusion(Qfile.Kind.NOT_YET_SUPPORTED,
                "test-only classes or jars of Hive's itests")),
                Qfile.parse("f.q", text, HiveTestJars.none(repository)).exclusion());
        Files.createDirectories(jar.getParent());
        Files.write(jar, new byte[0]);
        assertEquals(Optional.empty(), Qfile.parse("f.q", text, HiveTestJars.none(repository)).exclusion());
    }

    private static void assertExcluded(String text, Qfile.Kind kind, String reason) {
        assertEquals(Optional.of(new Qfile.Exclusion(kind, reason)), Qfile.parse("f.q", text, NO_TEST_JARS).exclusion(),
                text);
    }
}
