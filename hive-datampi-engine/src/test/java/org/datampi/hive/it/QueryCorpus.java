package org.datampi.hive.it;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.datampi.hive.it.udf.Shout;

/**
 * The query corpus, one list for every place that runs it (QueryCorpusIT in one JVM, the cluster tests across
 * simulated hosts): its data, its tables, its queries and its writes. Every query and write is run on Hive's MapReduce
 * engine and on datampi over the same tables, and their results must be equal.
 */
public final class QueryCorpus {
    /**
     * The settings a corpus session runs with: one split per file (so that a stage has more O tasks than ranks),
     * nonstrict dynamic partitions, and every query run as a job, also those Hive could answer by reading files.
     */
    public static final Map<String, String> SETTINGS = Map.of(
            "hive.input.format", "org.apache.hadoop.hive.ql.io.HiveInputFormat",
            "hive.exec.dynamic.partition.mode", "nonstrict",
            "hive.fetch.task.conversion", "none");

    private QueryCorpus() {
    }

    /** A query: its statements (settings first, the query last); ordered when its rows must come in MR's order. */
    public record Query(String name, boolean ordered, List<String> statements) {
        public Query {
            requireNonNull(name, "name is null");
            statements = List.copyOf(statements);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * A write: its statements, with %s standing for the engine's name so that each engine writes its own tables, and
     * the checks (queries over what was written, %s likewise) whose rows must be equal.
     */
    public record Write(String name, List<String> statements, List<String> checks) {
        public Write {
            requireNonNull(name, "name is null");
            statements = List.copyOf(statements);
            checks = List.copyOf(checks);
        }

        public List<String> statementsFor(String engine) {
            return statements.stream().map(statement -> statement.replace("%s", engine)).toList();
        }

        public List<String> checksFor(String engine) {
            return checks.stream().map(check -> check.replace("%s", engine)).toList();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Writes the data as '|'-delimited text into dir/sales (5 files) and dir/categories. */
    public static void writeData(Path dir) throws IOException {
        TestData.writeSales(dir, 5, 800);
        TestData.writeCategories(dir);
    }

    /**
     * The corpus's tables over the data at ROOT (where writeData wrote it, on any file system): external text tables
     * and ORC, RCFile and SequenceFile copies of the facts.
     */
    public static List<String> tables(URI root) {
        String base = root.toString().replaceAll("/+$", "");
        List<String> statements = new ArrayList<>();
        statements.add("CREATE EXTERNAL TABLE sales_text (" + TestData.SALES_COLUMNS + ") ROW FORMAT DELIMITED "
                + "FIELDS TERMINATED BY '|' STORED AS TEXTFILE LOCATION '" + base + "/sales'");
        statements.add("CREATE EXTERNAL TABLE categories (category STRING, region STRING, weight INT) ROW FORMAT "
                + "DELIMITED FIELDS TERMINATED BY '|' STORED AS TEXTFILE LOCATION '" + base + "/categories'");
        for (String format : List.of("ORC", "RCFILE", "SEQUENCEFILE")) {
            statements.add("CREATE TABLE sales_" + format.toLowerCase() + " STORED AS " + format
                    + " AS SELECT * FROM sales_text");
        }
        // Bucketed by category, for BUCKET_MAP_JOIN.
        statements.add("CREATE TABLE sales_bucketed (" + TestData.SALES_COLUMNS + ") CLUSTERED BY (category) INTO 4 "
                + "BUCKETS STORED AS ORC");
        statements.add("INSERT OVERWRITE TABLE sales_bucketed SELECT * FROM sales_text");
        return statements;
    }

    /**
     * A join that Hive's Tez compiler plans as a bucket map join (a custom edge sends each bucket of the small table's
     * rows to the tasks of the bucketed table's scan that read that bucket): Hive 4 keeps a bucketed table that is not
     * transactional as an external one, and plans bucket joins over external tables only with the unsafe operations
     * allowed.
     */
    public static final Query BUCKET_MAP_JOIN = query("bucket map join", false,
            "SET hive.disable.unsafe.external.table.operations=false", "SET hive.auto.convert.join=true",
            "SELECT c.region, s.category, count(*), sum(s.amount), max(s.name) FROM sales_bucketed s JOIN categories c "
            + "ON s.category = c.category GROUP BY c.region, s.category");

    public static List<Query> queries() {
        return List.of(
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
                // Hive's vectorized first_value ignores a frame whose start is bounded (FirstValueOverBoundedFrames).
                query("first_value over frames with a bounded start", false, "SELECT category, id, first_value(qty) "
                        + "OVER (PARTITION BY category ORDER BY id RANGE BETWEEN 3 PRECEDING AND CURRENT ROW), "
                        + "first_value(amount) OVER (PARTITION BY category ORDER BY id ROWS BETWEEN CURRENT ROW AND "
                        + "UNBOUNDED FOLLOWING) FROM sales_orc"),
                query("first_value over a frame with a bounded start, in a view", false,
                        "CREATE VIEW IF NOT EXISTS first_qty AS SELECT category, id, first_value(qty) OVER (PARTITION "
                        + "BY category ORDER BY id RANGE 2 PRECEDING) AS qty2 FROM sales_orc",
                        "SELECT category, id, qty2 FROM first_qty"),
                query("union all", false, "SELECT category, count(*) FROM (SELECT category FROM sales_orc WHERE qty > 40 "
                        + "UNION ALL SELECT category FROM sales_text WHERE qty < 0) u GROUP BY category"),
                // Two aggregations of one scan (Hive's shared work) whose reduce vertices are the union's members.
                query("union all of aggregations", false, "SELECT category, count(*) FROM sales_orc WHERE qty > 40 "
                        + "GROUP BY category UNION ALL SELECT category, count(*) FROM sales_orc WHERE qty <= 40 "
                        + "GROUP BY category"),
                query("scalar subquery", false, "SELECT name, amount FROM sales_orc WHERE amount > "
                        + "(SELECT avg(amount) FROM sales_orc) AND qty = 7"),
                query("decimal, date and timestamp", false, "SELECT year(d), month(d), sum(amount * 1.5), max(ts), "
                        + "min(to_date(ts)) FROM sales_sequencefile GROUP BY year(d), month(d)"),
                query("non-ASCII strings", false, "SELECT name, upper(category), length(name) FROM sales_text "
                        + "WHERE category IN ('東京', 'naïve', 'música')"),
                query("NULLs", false, "SELECT category IS NULL, amount IS NULL, count(*), count(qty) FROM sales_rcfile "
                        + "GROUP BY category IS NULL, amount IS NULL"),
                BUCKET_MAP_JOIN);
    }

    public static List<Write> writes() {
        return List.of(
                write("CTAS into ORC", List.of("CREATE TABLE t_orc_%s STORED AS ORC AS SELECT category, "
                        + "sum(amount) total, count(*) n FROM sales_text GROUP BY category"), "SELECT * FROM t_orc_%s"),
                write("CTAS into RCFile", List.of("CREATE TABLE t_rc_%s STORED AS RCFILE AS SELECT id, name, d "
                        + "FROM sales_orc WHERE qty > 20"), "SELECT * FROM t_rc_%s"),
                write("CTAS into text", List.of("CREATE TABLE t_text_%s STORED AS TEXTFILE AS SELECT * "
                        + "FROM sales_rcfile WHERE category = 'books'"), "SELECT * FROM t_text_%s"),
                write("INSERT OVERWRITE into ORC, twice", List.of(
                        "CREATE TABLE io_%s (category STRING, n BIGINT) STORED AS ORC",
                        "INSERT OVERWRITE TABLE io_%s SELECT category, count(*) FROM sales_text GROUP BY category",
                        "INSERT OVERWRITE TABLE io_%s SELECT category, count(*) FROM sales_orc WHERE qty > 3 "
                        + "GROUP BY category"), "SELECT * FROM io_%s"),
                write("dynamic-partition insert", List.of(
                        "CREATE TABLE dp_%s (id INT, amount DECIMAL(12,2)) PARTITIONED BY (y INT) STORED AS ORC",
                        "INSERT OVERWRITE TABLE dp_%s PARTITION (y) SELECT id, amount, year(d) FROM sales_text"),
                        "SELECT * FROM dp_%s", "SHOW PARTITIONS dp_%s"),
                write("multi-insert", List.of(
                        "CREATE TABLE mi_a_%s (category STRING, n BIGINT)", "CREATE TABLE mi_b_%s (id INT, qty INT)",
                        "FROM sales_orc INSERT OVERWRITE TABLE mi_a_%s SELECT category, count(*) GROUP BY category "
                        + "INSERT OVERWRITE TABLE mi_b_%s SELECT id, qty WHERE qty = 3"),
                        "SELECT * FROM mi_a_%s", "SELECT * FROM mi_b_%s"));
    }

    /**
     * A UDF from a jar the session adds at JAR (written here): no rank's class path has the class, so the ranks must
     * get it from the jar.
     */
    public static Query udfFromAddedJar(Path jar) throws IOException {
        writeUdfJar(jar);
        return query("a UDF from an added jar", false, "ADD JAR " + jar, "DROP TEMPORARY FUNCTION IF EXISTS shout",
                "CREATE TEMPORARY FUNCTION shout AS '" + Shout.class.getName() + "'",
                "SELECT shout(category), count(*) FROM sales_orc GROUP BY shout(category)");
    }

    /**
     * A UDF from a jar in the session's reloadable auxiliary directory DIRECTORY (written here; Hive's
     * hive.reloadable.aux.jars.path, then RELOAD): Hive ships those jars, as those of hive.aux.jars.path, with every
     * job, the query adding none.
     */
    public static Query udfFromReloadableAuxJar(Path directory) throws IOException {
        Files.createDirectories(directory);
        writeUdfJar(directory.resolve("shout-aux.jar"));
        return query("a UDF from a reloadable auxiliary jar", false,
                "SET hive.reloadable.aux.jars.path=" + directory, "RELOAD",
                "DROP TEMPORARY FUNCTION IF EXISTS shout_aux",
                "CREATE TEMPORARY FUNCTION shout_aux AS '" + Shout.class.getName() + "'",
                "SELECT shout_aux(category), count(*) FROM sales_orc GROUP BY shout_aux(category)");
    }

    private static void writeUdfJar(Path jar) throws IOException {
        String entry = Shout.class.getName().replace('.', '/') + ".class";
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                InputStream in = Shout.class.getClassLoader().getResourceAsStream(entry)) {
            out.putNextEntry(new JarEntry(entry));
            in.transferTo(out);
        }
    }

    /** Rows compared as multisets: sorted. */
    public static List<String> sorted(List<String> rows) {
        List<String> copy = new ArrayList<>(rows);
        copy.sort(null);
        return copy;
    }

    private static Query query(String name, boolean ordered, String... statements) {
        return new Query(name, ordered, List.of(statements));
    }

    private static Write write(String name, List<String> statements, String... checks) {
        return new Write(name, statements, List.of(checks));
    }
}
