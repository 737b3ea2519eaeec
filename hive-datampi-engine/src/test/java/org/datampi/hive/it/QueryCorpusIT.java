package org.datampi.hive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import org.apache.hadoop.fs.FileUtil;
import org.datampi.hive.it.udf.Shout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The query corpus: every query runs on Hive's own MapReduce engine (mr, in-process) and on datampi in the same
 * session, and the results must be equal: as multisets, or in order where the query orders. Writes go to a target
 * per engine, whose contents are then compared the same way.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QueryCorpusIT {
    private HiveSession hive;

    @BeforeAll
    void createTables() throws Exception {
        Path root = HiveSession.HOME.resolve("hive-datampi-engine/target/it-corpus");
        FileUtil.fullyDelete(root.toFile());
        Path data = Files.createDirectories(root.resolve("data"));
        Path sales = TestData.writeSales(data, 5, 800);
        Path categories = TestData.writeCategories(data);
        hive = new HiveSession(root.resolve("state"), Map.of(
                // One split per file, so that a stage has more O tasks (5) than processes (2).
                "hive.input.format", "org.apache.hadoop.hive.ql.io.HiveInputFormat",
                "hive.datampi.processes", "2",
                "hive.datampi.heap", "768m",
                "hive.exec.dynamic.partition.mode", "nonstrict",
                // Every query runs as a job, also those Hive could answer by reading files directly.
                "hive.fetch.task.conversion", "none"));
        hive.setEngine("mr");
        hive.createSalesText("sales_text", sales);
        hive.query("CREATE EXTERNAL TABLE categories (category STRING, region STRING, weight INT) ROW FORMAT "
                + "DELIMITED FIELDS TERMINATED BY '|' STORED AS TEXTFILE LOCATION '" + categories.toUri() + "'");
        for (String format : List.of("ORC", "RCFILE", "SEQUENCEFILE")) {
            hive.query("CREATE TABLE sales_" + format.toLowerCase() + " STORED AS " + format
                    + " AS SELECT * FROM sales_text");
        }
    }

    @AfterAll
    void close() throws Exception {
        hive.close();
    }

    static Stream<Arguments> queries() {
        return Stream.of(
                query("group by with several aggregates, ORC", false, "SELECT category, count(*), count(amount), "
                        + "sum(amount), avg(qty), min(d), max(ts), sum(if(flag, 1, 0)) FROM sales_orc GROUP BY category"),
                query("group by over text", false, "SELECT category, count(*), sum(amount) FROM sales_text "
                        + "GROUP BY category"),
                query("group by over RCFile", false, "SELECT category, count(*), sum(qty) FROM sales_rcfile "
                        + "GROUP BY category"),
                query("group by over SequenceFile", false, "SELECT flag, count(*), max(amount) FROM sales_sequencefile "
                        + "GROUP BY flag"),
                query("count distinct", false, "SELECT count(DISTINCT category), count(DISTINCT qty), "
                        + "count(DISTINCT name) FROM sales_rcfile"),
                query("shuffle join", false, "SET hive.auto.convert.join=false",
                        "SELECT c.region, count(*), sum(s.amount) FROM sales_orc s JOIN categories c "
                        + "ON s.category = c.category GROUP BY c.region"),
                query("map join", false, "SET hive.auto.convert.join=true",
                        "SELECT c.region, s.category, count(*), sum(s.qty) FROM sales_text s JOIN categories c "
                        + "ON s.category = c.category GROUP BY c.region, s.category"),
                query("left outer join", false, "SET hive.auto.convert.join=false",
                        "SELECT s.category, c.region, count(*) FROM sales_text s LEFT OUTER JOIN categories c "
                        + "ON s.category = c.category GROUP BY s.category, c.region"),
                query("full outer join", false, "SET hive.auto.convert.join=false",
                        "SELECT s.category, c.category, c.region FROM (SELECT DISTINCT category FROM sales_orc) s "
                        + "FULL OUTER JOIN categories c ON s.category = c.category"),
                query("semi join (IN)", false, "SELECT count(*), sum(amount) FROM sales_orc WHERE category IN "
                        + "(SELECT category FROM categories WHERE weight > 2)"),
                query("anti join (NOT EXISTS)", false, "SELECT s.id, s.category FROM sales_orc s WHERE NOT EXISTS "
                        + "(SELECT 1 FROM categories c WHERE c.category = s.category)"),
                query("three-way join", false, "SET hive.auto.convert.join=false",
                        "SELECT c.region, count(*), sum(r.qty) FROM sales_orc s JOIN categories c ON s.category = "
                        + "c.category JOIN sales_rcfile r ON s.id = r.id GROUP BY c.region"),
                query("order by with 3 A tasks (sampled total order)", true,
                        "SET hive.optimize.sampling.orderby=true", "SET mapreduce.job.reduces=3",
                        // Hive's own mr engine fails sampling over vectorized ORC (OrcStruct is not a row batch).
                        "SET hive.vectorized.execution.enabled=false",
                        "SELECT id, amount, name FROM sales_orc WHERE amount IS NOT NULL ORDER BY amount DESC, id"),
                query("window functions", false, "SELECT category, id, row_number() OVER (PARTITION BY category "
                        + "ORDER BY amount DESC, id), sum(qty) OVER (PARTITION BY category ORDER BY id ROWS BETWEEN "
                        + "2 PRECEDING AND CURRENT ROW) FROM sales_orc"),
                query("union all", false, "SELECT category, count(*) FROM (SELECT category FROM sales_orc WHERE qty > 40 "
                        + "UNION ALL SELECT category FROM sales_text WHERE qty < 0) u GROUP BY category"),
                query("scalar subquery", false, "SELECT name, amount FROM sales_orc WHERE amount > "
                        + "(SELECT avg(amount) FROM sales_orc) AND qty = 7"),
                query("decimal, date and timestamp", false, "SELECT year(d), month(d), sum(amount * 1.5), max(ts), "
                        + "min(to_date(ts)) FROM sales_sequencefile GROUP BY year(d), month(d)"),
                query("non-ASCII strings", false, "SELECT name, upper(category), length(name) FROM sales_text "
                        + "WHERE category IN ('東京', 'naïve', 'música')"),
                query("NULLs", false, "SELECT category IS NULL, amount IS NULL, count(*), count(qty) FROM sales_rcfile "
                        + "GROUP BY category IS NULL, amount IS NULL"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void sameRowsOnDatampiAsOnMr(String name, boolean ordered, List<String> statements) {
        assertSame(statements, ordered, statements.get(statements.size() - 1));
    }

    static Stream<Arguments> writes() {
        return Stream.of(
                write("CTAS into ORC", "t_orc_%s", "CREATE TABLE t_orc_%s STORED AS ORC AS SELECT category, "
                        + "sum(amount) total, count(*) n FROM sales_text GROUP BY category"),
                write("CTAS into RCFile", "t_rc_%s", "CREATE TABLE t_rc_%s STORED AS RCFILE AS SELECT id, name, d "
                        + "FROM sales_orc WHERE qty > 20"),
                write("CTAS into text", "t_text_%s", "CREATE TABLE t_text_%s STORED AS TEXTFILE AS SELECT * "
                        + "FROM sales_rcfile WHERE category = 'books'"),
                write("INSERT OVERWRITE into ORC, twice", "io_%s",
                        "CREATE TABLE io_%s (category STRING, n BIGINT) STORED AS ORC",
                        "INSERT OVERWRITE TABLE io_%s SELECT category, count(*) FROM sales_text GROUP BY category",
                        "INSERT OVERWRITE TABLE io_%s SELECT category, count(*) FROM sales_orc WHERE qty > 3 "
                        + "GROUP BY category"),
                write("dynamic-partition insert", "dp_%s",
                        "CREATE TABLE dp_%s (id INT, amount DECIMAL(12,2)) PARTITIONED BY (y INT) STORED AS ORC",
                        "INSERT OVERWRITE TABLE dp_%s PARTITION (y) SELECT id, amount, year(d) FROM sales_text"),
                write("multi-insert", "mi_b_%s",
                        "CREATE TABLE mi_a_%s (category STRING, n BIGINT)", "CREATE TABLE mi_b_%s (id INT, qty INT)",
                        "FROM sales_orc INSERT OVERWRITE TABLE mi_a_%s SELECT category, count(*) GROUP BY category "
                        + "INSERT OVERWRITE TABLE mi_b_%s SELECT id, qty WHERE qty = 3"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("writes")
    void sameTableOnDatampiAsOnMr(String name, String target, List<String> statements) {
        for (String engine : List.of("mr", "datampi")) {
            hive.setEngine(engine);
            for (String statement : statements) {
                hive.query(statement.replace("%s", engine));
            }
        }
        List<String> mr = sorted(hive.query("SELECT * FROM " + String.format(target, "mr")));
        List<String> datampi = sorted(hive.query("SELECT * FROM " + String.format(target, "datampi")));
        assertFalse(mr.isEmpty(), "the write produced rows");
        assertEquals(mr, datampi);
        if (target.startsWith("mi_")) {
            assertEquals(sorted(hive.query("SELECT * FROM mi_a_mr")), sorted(hive.query("SELECT * FROM mi_a_datampi")));
        }
        if (target.startsWith("dp_")) {
            assertEquals(hive.query("SHOW PARTITIONS dp_mr"), hive.query("SHOW PARTITIONS dp_datampi"));
        }
    }

    /** The ranks' classpath has no test classes: they must load the UDF from the jar the session added. */
    @Test
    void aUdfFromAnAddedJarRunsInTheRanks() throws Exception {
        Path jar = HiveSession.HOME.resolve("hive-datampi-engine/target/it-corpus/shout-udf.jar");
        String entry = Shout.class.getName().replace('.', '/') + ".class";
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                InputStream in = Shout.class.getClassLoader().getResourceAsStream(entry)) {
            out.putNextEntry(new JarEntry(entry));
            in.transferTo(out);
        }
        assertSame(List.of("ADD JAR " + jar, "DROP TEMPORARY FUNCTION IF EXISTS shout", "CREATE TEMPORARY FUNCTION shout AS '" + Shout.class.getName() + "'",
                "SELECT shout(category), count(*) FROM sales_orc GROUP BY shout(category)"), false, "shout");
    }

    private void assertSame(List<String> statements, boolean ordered, String query) {
        List<String> mr = runOn("mr", statements);
        int consoleBefore = hive.consoleText().length();
        List<String> datampi = runOn("datampi", statements);
        assertTrue(hive.consoleText().substring(consoleBefore).contains("job_datampi"),
                "the query ran as a datampi job: " + query);
        assertFalse(mr.isEmpty(), "the query returns rows: " + query);
        if (ordered) {
            assertEquals(mr, datampi, query);
        } else {
            assertEquals(sorted(mr), sorted(datampi), query);
        }
    }

    private List<String> runOn(String engine, List<String> statements) {
        hive.query("RESET");
        hive.setEngine(engine);
        List<String> rows = List.of();
        for (String statement : statements) {
            rows = hive.query(statement);
        }
        return rows;
    }

    private static Arguments query(String name, boolean ordered, String... statements) {
        return Arguments.of(name, ordered, Arrays.asList(statements));
    }

    private static Arguments write(String name, String target, String... statements) {
        return Arguments.of(name, target, Arrays.asList(statements));
    }

    private static List<String> sorted(List<String> rows) {
        List<String> copy = new ArrayList<>(rows);
        copy.sort(null);
        return copy;
    }

}
