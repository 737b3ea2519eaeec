package org.datampi.hive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.Test;

/**
 * bin/hive-datampi routes a line as Hive's CLI does (CliDriver.processCmd): {@code source FILE}, {@code !COMMAND},
 * QUIT, comments and quoted semicolons are the shell's; SET ROLE and friends are SQL, here under SQL standard
 * authorization, with the same output on mr and on datampi.
 */
class CliRoutingIT {
    private static final String SQL_STANDARD_AUTHORIZATION =
            "org.apache.hadoop.hive.ql.security.authorization.plugin.sqlstd.SQLStdHiveAuthorizerFactory";

    @Test
    void theShellsCommandsAndRoleStatementsAreRoutedAsInHivesCli() throws Exception {
        Path root = HiveSession.HOME.resolve("hive-datampi-engine/target/it-cli-routing");
        FileUtil.fullyDelete(root.toFile());
        Files.createDirectories(root);
        Files.writeString(root.resolve("sourced.sql"), """
                CREATE TABLE routed (a INT) STORED AS ORC;
                INSERT INTO routed VALUES (1), (2), (3);
                SELECT 'sourced', a FROM routed LIMIT 2;
                """);
        Files.writeString(root.resolve("main.sql"), "SET hivevar:dir=" + root + ";\n"
                + "source ${hivevar:dir}/sourced.sql;\n"
                + "SELECT 'quoted;semicolon', \"double;quoted\" -- a comment; with a semicolon\n;\n"
                + "!echo shell-ran;\n"
                + roleStatements("mr") + roleStatements("datampi")
                + "quit;\nSELECT 'after-quit';\n");
        String user = System.getProperty("user.name");
        HiveCli cli = HiveCli.startWith(root, "routing", "--hiveconf", "hive.security.authorization.enabled=true",
                "--hiveconf", "hive.security.authorization.manager=" + SQL_STANDARD_AUTHORIZATION,
                "--hiveconf", "hive.users.in.admin.role=" + user, "-f", root.resolve("main.sql").toString());
        assertEquals(0, cli.awaitExit(), cli.output());
        String output = cli.output();

        List<String> sourced = HiveCli.labelledRows(output, "sourced");
        assertEquals(2, sourced.size(), output);
        assertTrue(Set.of("1", "2", "3").containsAll(sourced), output);
        assertTrue(output.contains("job_datampi"), "the sourced INSERT ran on datampi:\n" + output);
        assertTrue(output.lines().anyMatch("quoted;semicolon\tdouble;quoted"::equals), output);
        assertTrue(output.lines().anyMatch("shell-ran"::equals), output);
        List<String> onMr = section(output, "mr");
        assertTrue(onMr.contains("ev_role_%s"), "SHOW ROLES lists the role created:\n" + output);
        assertEquals(onMr, section(output, "datampi"));
        assertFalse(output.contains("after-quit"), "nothing runs after QUIT:\n" + output);
    }

    private static String roleStatements(String engine) {
        return "SET hive.execution.engine=" + engine + ";\nSELECT '" + engine + "-begin';\nSET ROLE admin;\n"
                + "CREATE ROLE ev_role_" + engine + ";\nSHOW ROLES;\nSHOW CURRENT ROLES;\nDROP ROLE ev_role_" + engine
                + ";\nSHOW ROLES;\nSELECT '" + engine + "-end';\n";
    }

    /** The lines between ENGINE-begin and ENGINE-end, the role's name as ev_role_%s. */
    private static List<String> section(String output, String engine) {
        List<String> lines = output.lines().toList();
        int begin = lines.indexOf(engine + "-begin");
        int end = lines.indexOf(engine + "-end");
        assertTrue(begin >= 0 && end > begin, "no " + engine + " section in:\n" + output);
        // Hive's and datampi's progress lines go to stderr, in the same file: only the rows are compared.
        return lines.subList(begin + 1, end).stream().filter(line -> !line.contains(" ") && !line.contains(":"))
                .map(line -> line.replace("ev_role_" + engine, "ev_role_%s")).toList();
    }
}
