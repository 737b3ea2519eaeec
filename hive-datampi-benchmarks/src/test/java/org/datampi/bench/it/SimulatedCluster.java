package org.datampi.bench.it;

import static java.util.Objects.requireNonNull;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.hadoop.fs.FileUtil;
import org.datampi.bench.harness.ResultRows;
import org.datampi.bench.tpch.TpchGenerator;
import org.datampi.bench.tpch.TpchOracle;
import org.datampi.bench.tpch.TpchQuery;

/**
 * bin/cluster-sim as the cluster tests drive it, the way a user does: up, commands on a host, Hive and the TPC-H tools
 * against the cluster's HDFS and hostfile, down. Every command's output is kept in a log named after it.
 */
final class SimulatedCluster implements AutoCloseable {
    static final Path HOME = Path.of(System.getProperty("datampi.home")).toAbsolutePath().normalize();
    /** The cluster's file system: the NameNode on dmp1. */
    static final String HDFS = "hdfs://dmp1:9000";
    private static final double TPCH_SCALE = 0.01;
    /** Hive on MR on dmp1: Hadoop's local runner, which wants its staging directory on the local file system. */
    private static final List<String> MR_SETTINGS = List.of("--hiveconf", "mapreduce.framework.name=local",
            "--hiveconf", "mapreduce.jobtracker.staging.root.dir=file:///tmp/mr-staging");

    private final int hosts;
    private final String mpi;
    private final Path logs;

    private SimulatedCluster(int hosts, String mpi, Path logs) {
        this.hosts = hosts;
        this.mpi = requireNonNull(mpi, "mpi is null");
        this.logs = requireNonNull(logs, "logs is null");
    }

    /**
     * Starts HOSTS hosts on the MPI implementation, with bin/cluster-sim up's OPTIONS (--slurm); a cluster left by an
     * earlier run is taken down first.
     */
    static SimulatedCluster up(int hosts, String mpi, Path logs, String... options)
            throws IOException, InterruptedException {
        FileUtil.fullyDelete(logs.toFile());
        Files.createDirectories(logs);
        SimulatedCluster cluster = new SimulatedCluster(hosts, mpi, logs);
        cluster.run("down-before", "bin/cluster-sim", "down");
        List<String> up = new ArrayList<>(List.of("bin/cluster-sim", "up", "--hosts", Integer.toString(hosts), "--mpi",
                mpi));
        up.addAll(List.of(options));
        Result started = cluster.run("up", up.toArray(String[]::new));
        assertEquals(0, started.exit(), "bin/cluster-sim up:\n" + started.output());
        return cluster;
    }

    int hosts() {
        return hosts;
    }

    Path logs() {
        return logs;
    }

    /** down leaves no namespace behind. */
    @Override
    public void close() throws IOException, InterruptedException {
        Result down = run("down", "bin/cluster-sim", "down");
        assertEquals(0, down.exit(), "bin/cluster-sim down:\n" + down.output());
        Result netns = run("netns", "ip", "netns", "list");
        assertFalse(netns.output().contains("dmp"), "no host's namespace is left: " + netns.output());
    }

    /** HiveQL on datampi, on dmp1 against the cluster. */
    Result hive(String name, String sql) throws IOException, InterruptedException {
        return run(name, "bin/cluster-sim", "hive", "-e", "SET hive.execution.engine=datampi; " + sql);
    }

    /**
     * A HiveQL script on dmp1 against the cluster on ENGINE (datampi, or mr: Hive's MapReduce engine in Hadoop's local
     * runner on dmp1 over the same HDFS tables, the independent engine), with SETTINGS given as --hiveconf and
     * ENVIRONMENT added to the session's (and so its ranks'). Result rows (stdout) are kept apart from the console
     * (stderr): NAME.out and NAME.log.
     */
    Script hiveScript(String name, String engine, Map<String, String> settings, Map<String, String> environment,
            List<String> statements) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(HOME.resolve("bin/cluster-sim").toString(), "hive"));
        if (engine.equals("mr")) {
            command.addAll(MR_SETTINGS);
        }
        settings.forEach((key, value) -> command.addAll(List.of("--hiveconf", key + "=" + value)));
        command.addAll(List.of("--hiveconf", "hive.execution.engine=" + engine));
        return script(name, command, environment, statements);
    }

    /**
     * A HiveQL script on datampi the way a Slurm user runs it on dmp1: {@code salloc SALLOC_OPTIONS
     * bin/hive-datampi -f FILE}, with the cluster's site settings (HIVE_CONF_DIR) and SETTINGS as --hiveconf, no
     * hostfile. NAME.out holds the rows, NAME.log the console (salloc's lines among it).
     */
    Script salloc(String name, List<String> sallocOptions, Map<String, String> settings, List<String> statements)
            throws IOException, InterruptedException {
        List<String> command = sallocCommand(sallocOptions);
        settings.forEach((key, value) -> command.addAll(List.of("--hiveconf", key + "=" + value)));
        return script(name, command, Map.of(), statements);
    }

    /**
     * As salloc, started and not awaited: the caller ends it (scancel) and waits for it. Its stdout and stderr (salloc's
     * lines and Hive's console) both go to NAME.log.
     */
    Process sallocInBackground(String name, List<String> sallocOptions, List<String> statements) throws IOException {
        Path file = logs.resolve(name + ".sql");
        Files.write(file, statements.stream().map(statement -> statement + ";").toList(), StandardCharsets.UTF_8);
        List<String> command = sallocCommand(sallocOptions);
        command.addAll(List.of("-f", file.toString()));
        return new ProcessBuilder(command).directory(HOME.toFile()).redirectErrorStream(true)
                .redirectOutput(logs.resolve(name + ".log").toFile()).start();
    }

    /** {@code bin/cluster-sim exec dmp1 salloc SALLOC_OPTIONS bin/hive-datampi}, to add Hive's arguments to. */
    private static List<String> sallocCommand(List<String> sallocOptions) {
        List<String> command = new ArrayList<>(List.of(HOME.resolve("bin/cluster-sim").toString(), "exec", "dmp1",
                "salloc"));
        command.addAll(sallocOptions);
        command.add(HOME.resolve("bin/hive-datampi").toString());
        return command;
    }

    /**
     * A batch job of examples/slurm/hive-query.sbatch on dmp1 as a Slurm user submits one: {@code sbatch --parsable
     * --output=NAME.console OPTIONS hive-query.sbatch NAME.sql NAME.out}, the STATEMENTS in NAME.sql. Its output is the
     * job's id (with --wait among OPTIONS, once the job ended, and its exit code the job's).
     */
    Result sbatch(String name, List<String> options, List<String> statements) throws IOException, InterruptedException {
        Path file = logs.resolve(name + ".sql");
        Files.write(file, statements.stream().map(statement -> statement + ";").toList(), StandardCharsets.UTF_8);
        return sbatch(name, options, "hive-query.sbatch", file.toString(), logs.resolve(name + ".out").toString());
    }

    /** {@code sbatch --parsable --output=NAME.console OPTIONS examples/slurm/SCRIPT ARGUMENTS} on dmp1. */
    Result sbatch(String name, List<String> options, String script, String... arguments)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bin/cluster-sim", "exec", "dmp1", "sbatch", "--parsable",
                "--output=" + logs.resolve(name + ".console")));
        command.addAll(options);
        command.add(HOME.resolve("examples/slurm").resolve(script).toString());
        command.addAll(List.of(arguments));
        return run(name, command.toArray(String[]::new));
    }

    /** COMMAND with "-f NAME.sql" (the STATEMENTS) added, its stdout in NAME.out and its stderr in NAME.log. */
    private Script script(String name, List<String> command, Map<String, String> environment, List<String> statements)
            throws IOException, InterruptedException {
        Path file = logs.resolve(name + ".sql");
        Files.write(file, statements.stream().map(statement -> statement + ";").toList(), StandardCharsets.UTF_8);
        List<String> line = new ArrayList<>(command);
        line.addAll(List.of("-f", file.toString()));
        Path out = logs.resolve(name + ".out");
        Path console = logs.resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(line).directory(HOME.toFile())
                .redirectOutput(out.toFile()).redirectError(console.toFile());
        builder.environment().putAll(environment);
        int exit = await(builder.start(), line, console);
        return new Script(exit, Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(console, StandardCharsets.UTF_8));
    }

    /** A script's exit code, its stdout (result rows) and its console. */
    record Script(int exit, String rows, String console) {
    }

    Result exec(String name, String host, String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of("bin/cluster-sim", "exec", host));
        line.addAll(List.of(command));
        return run(name, line.toArray(String[]::new));
    }

    /** The NameNode's audit lines (one per client call: cmd=open src=...), from dmp1's private log directory. */
    List<String> hdfsAudit() throws IOException, InterruptedException {
        Result audit = exec("hdfs-audit", "dmp1", "grep", "FSNamesystem.audit", "logs/namenode.log");
        assertEquals(0, audit.exit(), "the NameNode logs its audit lines:\n" + audit.output());
        return audit.output().lines().toList();
    }

    /**
     * TPC-H queries (numbers of the 22) at scale 0.01 in FORMAT on datampi across the hosts: generated here, put into
     * HDFS, loaded with bin/tpch-load and run with bin/tpch-run on dmp1 as a user runs them, each answer equal to
     * DuckDB's over the same generated files.
     */
    void assertTpchAnswersAsDuckDb(String format, List<Integer> queries) throws Exception {
        Path data = logs.resolve("tpch-data");
        new TpchGenerator(TPCH_SCALE, data, 3, new PrintStream(OutputStream.nullOutputStream())).generate();
        Result put = run("tpch-put", "bin/cluster-sim", "hdfs", "dfs", "-put", data.toString(), "/tpch-sf0_01");
        assertEquals(0, put.exit(), "the generated files go into HDFS:\n" + put.output());
        Result load = run("tpch-load", "bin/cluster-sim", "run", "tpch-load", "--scale", "0.01", "--data",
                HDFS + "/tpch-sf0_01", "--format", format);
        assertEquals(0, load.exit(), "bin/tpch-load on the cluster:\n" + tail(load.output()));
        Path out = logs.resolve("tpch-out");
        Result run = run("tpch-run", "bin/cluster-sim", "run", "tpch-run", "--scale", "0.01", "--format", format,
                "--engine", "datampi", "--procs", Integer.toString(2 * hosts), "--heap", "6g", "--queries",
                queries.stream().map(String::valueOf).collect(Collectors.joining(",")), "--out", out.toString());
        String console = Files.readString(out.resolve("console.log"), StandardCharsets.UTF_8);
        assertEquals(0, run.exit(), "every query succeeds on the cluster:\n" + tail(console));
        assertTrue(console.contains("job_datampi"), "the queries ran on datampi");
        String lastHost = "dmp" + hosts;
        Result ranks = exec("tpch-ranks", lastHost, "bash", "-c", "grep -h 'of " + 2 * hosts + " starts job .* (" + mpi
                + ": ' logs/job_*/rank-*.log | head -1");
        assertFalse(ranks.output().isBlank(), "ranks of " + mpi + " ran on " + lastHost + ":\n" + ranks.output());
        List<String> wrong = new ArrayList<>();
        try (TpchOracle duckdb = TpchOracle.load(data)) {
            for (int number : queries) {
                TpchQuery query = TpchQuery.load(HOME.resolve("tpch-queries"), number, TPCH_SCALE);
                List<String> rows = Files.readAllLines(out.resolve(query.workload().name() + ".tsv"),
                        StandardCharsets.UTF_8);
                List<String> differences = ResultRows.differences(duckdb.answer(query), "DuckDB", rows, "datampi",
                        true);
                if (!differences.isEmpty()) {
                    wrong.add("Q" + number + ":\n" + String.join("\n", differences));
                }
            }
        }
        assertTrue(wrong.isEmpty(), "answers on the cluster differ from DuckDB's:\n" + String.join("\n", wrong));
    }

    record Result(int exit, String output) {
    }

    Result run(String name, String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(command));
        if (command[0].startsWith("bin/")) {
            line.set(0, HOME.resolve(command[0]).toString());
        }
        Path log = logs.resolve(name + ".log");
        Process process = new ProcessBuilder(line).directory(HOME.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        int exit = await(process, line, log);
        return new Result(exit, Files.readString(log, StandardCharsets.UTF_8));
    }

    private static int await(Process process, List<String> command, Path log) throws InterruptedException {
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not end within 10 minutes; see " + log);
        }
        return process.exitValue();
    }

    /**
     * The result rows in a Hive session's output: the lines with a tab (Hive's CLI separates columns with tabs), but
     * for the console's timestamped lines and Hive's own "Time taken to move files:\t..." of a write.
     */
    static List<String> rows(String output) {
        return output.lines().filter(line -> line.contains("\t") && !line.matches("\\d{4}-\\d\\d-\\d\\d.*")
                && !line.startsWith("Time taken")).toList();
    }

    static String tail(String text) {
        return text.substring(Math.max(0, text.length() - 6000));
    }
}
