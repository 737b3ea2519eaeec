package org.datampi.bench.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class QfileTest {
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
                """);
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
        assertExcluded("--! qt:authorizer\nSHOW ROLES;", Qfile.Kind.NOT_YET_SUPPORTED,
                "Hive's test authorizer (qt:authorizer)");
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
                + "\nSELECT key FROM src;");
        assertEquals(Optional.empty(), qfile.exclusion());
    }

    @Test
    void aPlainFileIsACandidateUnsorted() {
        Qfile qfile = Qfile.parse("plain.q", "SELECT key FROM src ORDER BY key;");
        assertEquals(Optional.empty(), qfile.exclusion());
        assertFalse(qfile.sortResults());
        assertFalse(qfile.onlyItsDatasets());
        assertFalse(qfile.transactional());
        assertEquals(List.of(), qfile.datasets());
    }

    private static void assertExcluded(String text, Qfile.Kind kind, String reason) {
        assertEquals(Optional.of(new Qfile.Exclusion(kind, reason)), Qfile.parse("f.q", text).exclusion(), text);
    }
}
