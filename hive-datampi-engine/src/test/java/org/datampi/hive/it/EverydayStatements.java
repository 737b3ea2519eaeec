package org.datampi.hive.it;

import static java.util.Objects.requireNonNull;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The statements a Hive user types first, one list for every client that runs them (EverydayStatementsIT through the
 * CLI's session, HiveServer2IT through JDBC): fetch-task queries (LIMIT over every format the engine reads, filters
 * on partition columns, TABLESAMPLE) at each fetch-task conversion, SHOW and DESCRIBE, EXPLAIN, ANALYZE, views, CTAS,
 * INSERT OVERWRITE [LOCAL] DIRECTORY, ALTER TABLE, TRUNCATE, temporary tables and functions, and the commands whose
 * routing differs from SQL's (DELETE FROM, SET ROLE, dfs, RELOAD, set -v).
 *
 * <p>Each script runs on Hive on MR and on datampi in both plan shapes, in the same session, and every step's outcome
 * must be MR's: its rows, or its failure's message where MR fails too. A script's own tables carry the run's name
 * ({@code %s}), which is taken out of the output again before it is compared. Where MR ran a job, datampi must have
 * run a stage.
 */
final class EverydayStatements {
    /** The runs compared: Hive on MR, then datampi in each plan shape. */
    static final List<Run> RUNS = List.of(new Run("mr", "mapreduce"), new Run("datampi", "mapreduce"),
            new Run("datampi", "dag"));

    /** Lines of DESCRIBE FORMATTED, SHOW CREATE TABLE and SHOW TABLE EXTENDED that differ between any two writes. */
    private static final Pattern VOLATILE = Pattern.compile("(?i)time|size|files");
    /** What Hive prints when it launches a MapReduce or Tez job (Executor.launchTask). */
    private static final String LAUNCHING_JOB = "Launching Job";

    private EverydayStatements() {
    }

    /** An engine and plan shape; its name stands for %s in the statements it runs. */
    record Run(String engine, String shape) {
        Run {
            requireNonNull(engine, "engine is null");
            requireNonNull(shape, "shape is null");
        }

        String name() {
            return engine.equals("mr") ? "mr" : engine + "_" + shape;
        }

        @Override
        public String toString() {
            return name();
        }
    }

    /** How a step's outcome on datampi is held against MR's. */
    enum Check {
        /** The same rows in the same order. */
        ORDERED,
        /** The same rows in any order. */
        UNORDERED,
        /** As many rows as MR's, each a row of the step's query without its LIMIT (which rows is not defined). */
        ANY_OF_LIMIT,
        /** The same rows but for the lines that change with every write (times, sizes, file counts). */
        METADATA,
        /** Succeeds, with some output (rows, or what a command printed), on both (EXPLAIN: plans differ). */
        RUNS,
        /** Fails on MR and on datampi, with the same message. */
        FAILS,
        /**
         * Fails on MR and on datampi; datampi's error names what the step names (the file it could not read: MR's
         * names only its task).
         */
        FAILS_NAMING,
        /** Succeeds on both; datampi's rows name what the step names (EXPLAIN: the view a query is rewritten to). */
        NAMES
    }

    /** A statement and its check; NAMED, for FAILS_NAMING and NAMES only, what datampi's error or rows must name. */
    record Step(String statement, Check check, String named) {
        Step {
            requireNonNull(statement, "statement is null");
            requireNonNull(check, "check is null");
            if ((check == Check.FAILS_NAMING || check == Check.NAMES) != (named != null)) {
                throw new IllegalArgumentException("a name for FAILS_NAMING and NAMES, and for them alone: "
                        + statement);
            }
        }
    }

    /** A script; JOBS: whether MR runs a job in it (which tells that a client's log shows MR's jobs). */
    record Script(String name, boolean jobs, List<Step> steps) {
        Script {
            requireNonNull(name, "name is null");
            steps = List.copyOf(steps);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** What a step came to in one run: its rows, or its failure; and what the client logged meanwhile. */
    record Outcome(List<String> rows, String error, String log) {
        Outcome {
            rows = List.copyOf(rows);
            requireNonNull(log, "log is null");
        }
    }

    /** A client of one session: runs a statement and tells its outcome. RESET and SET go through it too. */
    interface Client {
        Outcome run(String statement);
    }

    /** The shared tables, made once on MR: the same rows in ORC, text, RCFile and SequenceFile, partitioned, bucketed. */
    static List<String> tables() {
        return List.of(
                "SET hive.execution.engine=mr",
                "SET hive.exec.dynamic.partition.mode=nonstrict",
                "CREATE TABLE ev_orc STORED AS ORC AS SELECT pos AS k, concat('v', pos % 13) AS v, "
                        + "CAST(pos % 50 AS DECIMAL(10,2)) AS d FROM (SELECT posexplode(split(space(299), ' '))) t",
                "CREATE TABLE ev_text STORED AS TEXTFILE AS SELECT * FROM ev_orc",
                "CREATE TABLE ev_rc STORED AS RCFILE AS SELECT * FROM ev_orc",
                "CREATE TABLE ev_seq STORED AS SEQUENCEFILE AS SELECT * FROM ev_orc",
                "CREATE TABLE ev_part (k INT, v STRING) PARTITIONED BY (dt STRING) STORED AS ORC",
                "INSERT INTO ev_part PARTITION (dt) SELECT k, v, concat('2024-01-0', k % 3 + 1) FROM ev_orc",
                "CREATE TABLE ev_bucketed (k INT, v STRING) CLUSTERED BY (k) INTO 4 BUCKETS STORED AS ORC",
                "INSERT INTO ev_bucketed SELECT k, v FROM ev_orc",
                "RESET");
    }

    private static final String SHOW_DESCRIBE = "SHOW, DESCRIBE and EXPLAIN";
    private static final String DIRECTORY_WRITES = "INSERT OVERWRITE [LOCAL] DIRECTORY";
    private static final String COMMANDS = "commands routed as Hive routes them";
    private static final String FETCH_TASKS = "fetch-task conversion ";

    /**
     * The scripts whose outcome a client can change (its routing of commands, its path for results and fetch tasks,
     * where a LOCAL directory is), for a second client: the others run on the engine the same whoever sends them.
     */
    static List<Script> clientScripts(Path directories) {
        Set<String> names = Set.of(FETCH_TASKS + "more", SHOW_DESCRIBE, DIRECTORY_WRITES, COMMANDS);
        List<Script> scripts = scripts(directories).stream().filter(script -> names.contains(script.name())).toList();
        assertEquals(names.size(), scripts.size(), "the client scripts by name");
        return scripts;
    }

    /** Every script; DIRECTORIES is where the INSERT OVERWRITE [LOCAL] DIRECTORY script writes. */
    static List<Script> scripts(Path directories) {
        List<Script> scripts = new ArrayList<>();
        for (String conversion : List.of("none", "minimal", "more")) {
            scripts.add(fetchQueries(conversion));
        }
        scripts.add(new Script(SHOW_DESCRIBE, false, List.of(
                step("SHOW DATABASES", Check.ORDERED),
                step("SHOW TABLES LIKE 'ev_orc|ev_part|ev_bucketed'", Check.ORDERED),
                step("SHOW PARTITIONS ev_part", Check.ORDERED),
                step("SHOW PARTITIONS ev_part PARTITION (dt='2024-01-02')", Check.ORDERED),
                step("SHOW COLUMNS IN ev_orc", Check.ORDERED),
                step("SHOW CREATE TABLE ev_part", Check.METADATA),
                step("SHOW TBLPROPERTIES ev_bucketed ('bucketing_version')", Check.ORDERED),
                step("SHOW TABLE EXTENDED LIKE 'ev_seq'", Check.METADATA),
                step("SHOW FUNCTIONS LIKE 'upp*'", Check.ORDERED),
                step("SHOW CONF 'hive.exec.reducers.max'", Check.ORDERED),
                step("SHOW CURRENT ROLES", Check.ORDERED),
                step("DESCRIBE ev_part", Check.ORDERED),
                step("DESCRIBE FORMATTED ev_bucketed", Check.METADATA),
                step("DESCRIBE EXTENDED ev_orc k", Check.METADATA),
                step("DESCRIBE DATABASE default", Check.ORDERED),
                step("DESCRIBE FUNCTION upper", Check.ORDERED),
                step("DESCRIBE FUNCTION EXTENDED upper", Check.ORDERED),
                step("EXPLAIN SELECT v, count(*) FROM ev_orc GROUP BY v", Check.RUNS),
                step("EXPLAIN SELECT * FROM ev_orc LIMIT 3", Check.RUNS),
                step("EXPLAIN CBO SELECT e.v, count(*) FROM ev_orc e JOIN ev_part p ON e.k = p.k GROUP BY e.v",
                        Check.RUNS))));
        scripts.add(new Script("CTAS, views and ANALYZE", true, List.of(
                step("CREATE TABLE ev_ctas_%s STORED AS ORC AS SELECT v, count(*) AS n, sum(d) AS s FROM ev_orc "
                        + "GROUP BY v", Check.ORDERED),
                step("SELECT * FROM ev_ctas_%s", Check.UNORDERED),
                step("CREATE VIEW ev_view_%s AS SELECT v, n FROM ev_ctas_%s WHERE n > 22", Check.ORDERED),
                step("SHOW VIEWS LIKE 'ev_view_%s'", Check.ORDERED),
                step("DESCRIBE ev_view_%s", Check.ORDERED),
                step("SELECT v, n FROM ev_view_%s ORDER BY v", Check.ORDERED),
                step("DROP VIEW ev_view_%s", Check.ORDERED),
                step("ANALYZE TABLE ev_ctas_%s COMPUTE STATISTICS", Check.ORDERED),
                step("ANALYZE TABLE ev_ctas_%s COMPUTE STATISTICS FOR COLUMNS", Check.ORDERED),
                step("DESCRIBE FORMATTED ev_ctas_%s n", Check.ORDERED),
                step("SET hive.exec.dynamic.partition.mode=nonstrict", Check.ORDERED),
                step("CREATE TABLE ev_stats_%s (k INT, v STRING) PARTITIONED BY (dt STRING) STORED AS ORC",
                        Check.ORDERED),
                step("INSERT INTO ev_stats_%s PARTITION (dt) SELECT k, v, dt FROM ev_part", Check.ORDERED),
                step("ANALYZE TABLE ev_stats_%s PARTITION (dt) COMPUTE STATISTICS", Check.ORDERED),
                step("ANALYZE TABLE ev_stats_%s PARTITION (dt='2024-01-02') COMPUTE STATISTICS FOR COLUMNS",
                        Check.ORDERED),
                step("DESCRIBE FORMATTED ev_stats_%s PARTITION (dt='2024-01-02') k", Check.ORDERED),
                step("DESCRIBE FORMATTED ev_stats_%s PARTITION (dt='2024-01-03')", Check.METADATA),
                step("SELECT count(*), max(k) FROM ev_stats_%s", Check.ORDERED))));
        scripts.add(new Script("ALTER TABLE and TRUNCATE", true, List.of(
                step("CREATE TABLE ev_alter_%s (k INT, v STRING) PARTITIONED BY (dt STRING) STORED AS ORC",
                        Check.ORDERED),
                step("ALTER TABLE ev_alter_%s ADD PARTITION (dt='a') PARTITION (dt='b')", Check.ORDERED),
                step("INSERT INTO ev_alter_%s PARTITION (dt='a') SELECT k, v FROM ev_orc WHERE k < 10",
                        Check.ORDERED),
                step("ALTER TABLE ev_alter_%s PARTITION (dt='a') RENAME TO PARTITION (dt='c')", Check.ORDERED),
                step("ALTER TABLE ev_alter_%s DROP PARTITION (dt='b')", Check.ORDERED),
                step("SHOW PARTITIONS ev_alter_%s", Check.ORDERED),
                step("ALTER TABLE ev_alter_%s ADD COLUMNS (extra STRING)", Check.ORDERED),
                step("ALTER TABLE ev_alter_%s CHANGE COLUMN v value STRING", Check.ORDERED),
                step("ALTER TABLE ev_alter_%s SET TBLPROPERTIES ('purpose'='everyday')", Check.ORDERED),
                step("SHOW TBLPROPERTIES ev_alter_%s ('purpose')", Check.ORDERED),
                step("DESCRIBE ev_alter_%s", Check.ORDERED),
                step("SELECT * FROM ev_alter_%s", Check.UNORDERED),
                step("SELECT dt, count(*), sum(k) FROM ev_alter_%s GROUP BY dt", Check.UNORDERED),
                step("ALTER TABLE ev_alter_%s RENAME TO ev_renamed_%s", Check.ORDERED),
                step("TRUNCATE TABLE ev_renamed_%s", Check.ORDERED),
                step("SELECT count(*) FROM ev_renamed_%s", Check.ORDERED))));
        scripts.add(new Script("small files merged", true, List.of(
                // Hive 4's tables here are external (non-ACID managed tables are translated to external).
                step("SET hive.concatenate.external.table=true", Check.ORDERED),
                step("CREATE TABLE cc_orc_%s (k INT, v STRING) PARTITIONED BY (p INT) STORED AS ORC", Check.ORDERED),
                step("INSERT INTO cc_orc_%s PARTITION (p=1) SELECT k, v FROM ev_orc WHERE k < 100", Check.ORDERED),
                step("INSERT INTO cc_orc_%s PARTITION (p=1) SELECT k, v FROM ev_orc WHERE k >= 100", Check.ORDERED),
                step("SELECT count(DISTINCT INPUT__FILE__NAME) FROM cc_orc_%s", Check.ORDERED),
                step("ALTER TABLE cc_orc_%s PARTITION (p=1) CONCATENATE", Check.ORDERED),
                step("SELECT count(DISTINCT INPUT__FILE__NAME), count(*), sum(k) FROM cc_orc_%s", Check.ORDERED),
                step("CREATE TABLE cc_rc_%s (k INT, v STRING) STORED AS RCFILE", Check.ORDERED),
                step("INSERT INTO cc_rc_%s SELECT k, v FROM ev_orc WHERE k < 100", Check.ORDERED),
                step("INSERT INTO cc_rc_%s SELECT k, v FROM ev_orc WHERE k >= 100", Check.ORDERED),
                step("ALTER TABLE cc_rc_%s CONCATENATE", Check.ORDERED),
                step("SELECT count(DISTINCT INPUT__FILE__NAME), count(*), sum(k) FROM cc_rc_%s", Check.ORDERED),
                // The merge Hive adds after an INSERT whose files are small: one file however many reducers wrote.
                step("SET hive.merge.tezfiles=true", Check.ORDERED),
                step("SET hive.merge.mapfiles=true", Check.ORDERED),
                step("SET hive.merge.mapredfiles=true", Check.ORDERED),
                step("SET hive.merge.smallfiles.avgsize=100000000", Check.ORDERED),
                step("SET mapreduce.job.reduces=3", Check.ORDERED),
                step("CREATE TABLE mg_%s (g BIGINT, n BIGINT) STORED AS ORC", Check.ORDERED),
                step("INSERT OVERWRITE TABLE mg_%s SELECT k % 7, count(*) FROM ev_orc GROUP BY k % 7", Check.ORDERED),
                step("SELECT count(DISTINCT INPUT__FILE__NAME), count(*), sum(n) FROM mg_%s", Check.ORDERED))));
        scripts.add(new Script("temporary tables and functions", true, List.of(
                step("CREATE TEMPORARY TABLE ev_tmp_%s AS SELECT k, v FROM ev_orc WHERE k < 50", Check.ORDERED),
                step("SELECT v, count(*) FROM ev_tmp_%s GROUP BY v", Check.UNORDERED),
                step("CREATE TEMPORARY FUNCTION ev_upper_%s AS "
                        + "'org.apache.hadoop.hive.ql.udf.generic.GenericUDFUpper'", Check.ORDERED),
                step("SELECT ev_upper_%s(v), count(*) FROM ev_tmp_%s GROUP BY ev_upper_%s(v)", Check.UNORDERED),
                step("DROP TEMPORARY FUNCTION ev_upper_%s", Check.ORDERED),
                step("DROP TABLE ev_tmp_%s", Check.ORDERED))));
        // Not Path.toUri(), which would quote %s.
        String local = "file://" + directories.resolve("local_%s");
        String shared = "file://" + directories.resolve("shared_%s");
        scripts.add(new Script(DIRECTORY_WRITES, true, List.of(
                step("INSERT OVERWRITE LOCAL DIRECTORY '" + directories.resolve("local_%s")
                        + "' SELECT v, count(*) FROM ev_orc GROUP BY v", Check.ORDERED),
                step("INSERT OVERWRITE DIRECTORY '" + shared + "' ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' "
                        + "SELECT k, v, d FROM ev_orc WHERE k % 4 = 1", Check.ORDERED),
                step("CREATE EXTERNAL TABLE ev_local_%s (v STRING, n BIGINT) LOCATION '" + local + "'",
                        Check.ORDERED),
                step("SELECT * FROM ev_local_%s", Check.UNORDERED),
                step("CREATE EXTERNAL TABLE ev_shared_%s (k INT, v STRING, d DECIMAL(10,2)) ROW FORMAT DELIMITED "
                        + "FIELDS TERMINATED BY ',' LOCATION '" + shared + "'", Check.ORDERED),
                step("SELECT * FROM ev_shared_%s", Check.UNORDERED))));
        scripts.add(new Script(COMMANDS, true, List.of(
                step("DELETE FROM ev_orc WHERE k = 1", Check.FAILS),
                step("UPDATE ev_orc SET v = 'x' WHERE k = 1", Check.FAILS),
                step("SET ROLE admin", Check.FAILS),
                step("SHOW ROLES", Check.FAILS),
                step("RELOAD", Check.ORDERED),
                step("dfs -ls " + directories, Check.RUNS),
                step("set -v", Check.RUNS),
                step("SET hive.exec.reducers.max", Check.ORDERED),
                step("SELECT count(*) FROM ev_orc WHERE v = 'v3'", Check.ORDERED))));
        return scripts;
    }

    /** LIMIT over each format, filters on partition columns and TABLESAMPLE at one fetch-task conversion. */
    private static Script fetchQueries(String conversion) {
        List<Step> steps = new ArrayList<>();
        steps.add(step("SET hive.fetch.task.conversion=" + conversion, Check.ORDERED));
        for (String table : List.of("ev_orc", "ev_text", "ev_rc", "ev_seq", "ev_bucketed")) {
            steps.add(step("SELECT * FROM " + table + " LIMIT 3", Check.ANY_OF_LIMIT));
        }
        steps.add(step("SELECT k, v FROM ev_orc WHERE k % 7 = 3 LIMIT 4", Check.ANY_OF_LIMIT));
        steps.add(step("SELECT * FROM ev_part WHERE dt = '2024-01-02' LIMIT 5", Check.ANY_OF_LIMIT));
        steps.add(step("SELECT k, dt FROM ev_part WHERE dt >= '2024-01-02' AND k < 40", Check.UNORDERED));
        steps.add(step("SELECT * FROM ev_bucketed TABLESAMPLE (BUCKET 2 OUT OF 4 ON k)", Check.UNORDERED));
        steps.add(step("SELECT k FROM ev_orc ORDER BY k DESC LIMIT 5", Check.ORDERED));
        steps.add(step("SELECT v, count(*) FROM ev_orc GROUP BY v LIMIT 2", Check.ANY_OF_LIMIT));
        return new Script(FETCH_TASKS + conversion, true, steps);
    }

    static Step step(String statement, Check check) {
        return new Step(statement, check, null);
    }

    /** A step that succeeds on both engines, datampi's rows naming NAMED. */
    static Step names(String statement, String named) {
        return new Step(statement, Check.NAMES, named);
    }

    /** A step that fails on both engines, datampi's error naming NAMED. */
    static Step failsNaming(String statement, String named) {
        return new Step(statement, Check.FAILS_NAMING, named);
    }

    /**
     * Runs SCRIPT on RUN through CLIENT, and holds each step's outcome against MR's (MR_OUTCOMES, the outcomes of
     * the same script on mr; null when RUN is mr itself). Returns the outcomes.
     */
    static List<Outcome> runAndCompare(Client client, Script script, Run run, List<Outcome> mrOutcomes) {
        client.run("RESET");
        client.run("SET hive.execution.engine=" + run.engine());
        client.run("SET hive.datampi.plan=" + run.shape());
        List<Outcome> outcomes = new ArrayList<>();
        boolean jobs = false;
        for (int i = 0; i < script.steps().size(); i++) {
            Step step = script.steps().get(i);
            String statement = step.statement().replace("%s", run.name());
            Outcome raw = client.run(statement);
            Outcome outcome = new Outcome(raw.rows().stream().map(row -> withoutRunName(row, run)).toList(),
                    raw.error() == null ? null : withoutRunName(raw.error(), run), raw.log());
            outcomes.add(outcome);
            String what = run + ": " + statement;
            if (step.check() == Check.FAILS || step.check() == Check.FAILS_NAMING) {
                assertNotNull(outcome.error(), what + " should fail, as on MR");
            } else {
                assertNull(outcome.error(), what + " failed:\n" + outcome.error() + "\n" + outcome.log());
            }
            if (mrOutcomes == null) {
                jobs |= outcome.log().contains(LAUNCHING_JOB);
                continue;
            }
            Outcome mr = mrOutcomes.get(i);
            compare(step, mr, outcome, client, what);
            if (mr.log().contains(LAUNCHING_JOB)) {
                assertTrue(outcome.log().contains("job_datampi"), what + ": MR ran a job, datampi no stage:\n"
                        + outcome.log());
            }
        }
        if (mrOutcomes == null) {
            assertEquals(script.jobs(), jobs, run + ": " + script + ": whether MR launched a job");
        }
        return outcomes;
    }

    /** TEXT with the run's name as %s, and without the padding Hive gave its fields (which the name's length sets). */
    private static String withoutRunName(String text, Run run) {
        return text.replace(run.name(), "%s").replaceAll(" +(\t|$)", "$1");
    }

    private static void compare(Step step, Outcome mr, Outcome datampi, Client client, String what) {
        switch (step.check()) {
            case ORDERED -> assertEquals(mr.rows(), datampi.rows(), what);
            case UNORDERED -> {
                assertFalse(mr.rows().isEmpty(), what + ": MR returned rows");
                assertEquals(QueryCorpus.sorted(mr.rows()), QueryCorpus.sorted(datampi.rows()), what);
            }
            case ANY_OF_LIMIT -> {
                assertFalse(mr.rows().isEmpty(), what + ": MR returned rows");
                assertEquals(mr.rows().size(), datampi.rows().size(), what + ": as many rows as MR's");
                String unlimited = step.statement().replaceAll("(?i)\\s+LIMIT\\s+\\d+\\s*$", "");
                // The whole answer is MR's (the session's other settings stay as the script set them).
                client.run("SET hive.execution.engine=mr");
                Outcome all = client.run(unlimited);
                client.run("SET hive.execution.engine=datampi");
                assertNull(all.error(), unlimited);
                Set<String> rows = new HashSet<>(all.rows());
                assertTrue(rows.containsAll(datampi.rows()), what + ": rows of " + unlimited + ": "
                        + datampi.rows());
            }
            case METADATA -> assertEquals(steady(mr.rows()), steady(datampi.rows()), what);
            case RUNS -> assertFalse(datampi.rows().isEmpty() && datampi.log().isBlank(), what + ": printed nothing");
            case FAILS -> assertEquals(mr.error(), datampi.error(), what);
            case FAILS_NAMING -> assertTrue(datampi.error().contains(step.named()), what + ": the error names "
                    + step.named() + ":\n" + datampi.error());
            case NAMES -> assertTrue(datampi.rows().stream().anyMatch(row -> row.contains(step.named())), what
                    + ": the output names " + step.named() + ":\n" + String.join("\n", datampi.rows()));
        }
    }

    private static List<String> steady(List<String> rows) {
        return rows.stream().filter(row -> !VOLATILE.matcher(row).find()).toList();
    }

    /** The (script, run) pairs on datampi of SCRIPTS, script by script, for a parameterized test. */
    static Stream<Object[]> datampiRuns(List<Script> scripts) {
        return scripts.stream().flatMap(script -> RUNS.stream().filter(run -> !run.engine().equals("mr"))
                .map(run -> new Object[] {script, run}));
    }
}
