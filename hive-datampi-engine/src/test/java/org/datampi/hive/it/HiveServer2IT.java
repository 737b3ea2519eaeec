package org.datampi.hive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.hadoop.fs.FileUtil;
import org.apache.hive.jdbc.HiveStatement;
import org.apache.hive.jdbc.logs.InPlaceUpdateStream;
import org.apache.hive.service.rpc.thrift.TProgressUpdateResp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * bin/hiveserver2-datampi (Hive's HiveServer2 on the embedded default) with clients in other JVMs, as Hive users
 * connect: this test through the hive-jdbc 4.1.0 driver, and bin/beeline. A session chooses datampi with SET; the
 * answers equal Hive on MR's through the same server, also for two sessions at once; the query's log, which
 * HiveServer2 sends the client, shows that datampi ran it; a failing query's error reaches the client naming rank and
 * cause; a cancelled query's ranks stop.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HiveServer2IT {
    private static final long START_SECONDS = 180;
    /** What the console says of a cancelled job whose ranks finished it within the grace (MpidrunJob). */
    private static final String RANKS_STAYED = "its ranks finished its tasks within the cancel grace";
    private static final Pattern QUEUED_BY_ESTIMATE = Pattern.compile(
            "\\(queued as \\d+ rows' worth by Hive's estimate, smallest first\\)");
    private static final String GROUP_BY = "SELECT category, count(*), sum(amount), min(id) FROM sales GROUP BY "
            + "category";
    private static final String JOIN = "SELECT s.category, count(*), max(c.label) FROM sales s JOIN categories c ON "
            + "s.category = c.category WHERE s.id % 3 = 1 GROUP BY s.category";

    private final Path root = HiveSession.HOME.resolve("hive-datampi-engine/target/it-hiveserver2");
    private Process server;
    private Path serverOutput;
    private String url;
    private final Map<String, List<String>> answersOnMr = new ConcurrentHashMap<>();
    private final Map<String, List<EverydayStatements.Outcome>> everydayOnMr = new ConcurrentHashMap<>();
    private boolean everydayTablesMade;

    @BeforeAll
    void start() throws Exception {
        FileUtil.fullyDelete(root.toFile());
        Files.createDirectories(root);
        int port = freePort();
        url = "jdbc:hive2://localhost:" + port + "/default";
        serverOutput = root.resolve("hiveserver2.out");
        server = new ProcessBuilder(HiveSession.HOME.resolve("bin/hiveserver2-datampi").toString(), "--port",
                String.valueOf(port), "--warehouse", root.resolve("state").toString(), "--hiveconf",
                "hive.datampi.heap=768m", "--hiveconf", "hive.fetch.task.conversion=none")
                .redirectErrorStream(true).redirectOutput(serverOutput.toFile()).start();
        awaitListening(port);
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET hive.execution.engine=mr");
            statement.execute("CREATE TABLE sales STORED AS ORC AS SELECT pos AS id, concat('c', pos % 7) AS "
                    + "category, CAST(pos % 100 AS DECIMAL(10,2)) AS amount FROM (SELECT posexplode(split(space("
                    + "4999), ' ')) AS (pos, unused)) t");
            statement.execute("CREATE TABLE categories (category STRING, label STRING)");
            statement.execute("INSERT INTO categories VALUES ('c0', 'zero'), ('c1', 'one'), ('c3', 'three')");
        }
    }

    @AfterAll
    void stop() throws Exception {
        if (server == null) {
            return;
        }
        server.destroy();
        if (!server.waitFor(60, TimeUnit.SECONDS)) {
            server.destroyForcibly();
            fail("hiveserver2-datampi did not stop within 60 s of SIGTERM:\n" + output());
        }
    }

    @Test
    void aJdbcSessionOnDatampiGetsTheAnswersOfMr() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            List<String> groupedOnMr = rowsOnMr(GROUP_BY);
            List<String> joinedOnMr = rowsOnMr(JOIN);
            assertFalse(groupedOnMr.isEmpty() || joinedOnMr.isEmpty(), "MR returns rows");

            statement.execute("SET hive.execution.engine=datampi");
            assertEquals(groupedOnMr, rows(statement, GROUP_BY));
            assertTrue(String.join("\n", ((HiveStatement) statement).getQueryLog()).contains("job_datampi"),
                    "the query's log, sent to the client, shows the datampi stage");
            assertEquals(joinedOnMr, rows(statement, JOIN));
            assertTrue(String.join("\n", ((HiveStatement) statement).getQueryLog()).contains("job_datampi"),
                    "the join ran on datampi");
            statement.execute("CREATE TABLE grouped STORED AS ORC AS " + GROUP_BY);
            statement.execute("INSERT INTO grouped " + GROUP_BY);
            statement.execute("SET hive.execution.engine=mr");
            List<String> twice = new ArrayList<>(groupedOnMr);
            twice.addAll(groupedOnMr);
            assertEquals(twice.stream().sorted().toList(), rows(statement, "SELECT * FROM grouped"),
                    "the CTAS and the INSERT that datampi wrote, read by MR");
        }
    }

    @Test
    void aFailingQuerysErrorReachesTheClientWithRankAndCause() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET hive.execution.engine=datampi");
            SQLException error = assertThrows(SQLException.class, () -> statement.executeQuery(
                    "SELECT id, assert_true(id < 4000) FROM sales"));
            assertTrue(error.getMessage().matches("(?s).*datampi: job failed on rank \\d+ \\(\\S+\\), vertex Map 1, "
                    + "task \\d+: .*ASSERT_TRUE\\(\\): assertion failed.*"), error.getMessage());
            assertEquals(List.of("5000"), rows(statement, "SELECT count(*) FROM sales"), "the session goes on");
        }
    }

    /**
     * Two JDBC sessions at once, 9 queries each with Hive's parallel stages (one session in the DAG shape, the other
     * in the MapReduce shape, whose UNION ALL of two aggregations is two stages run in parallel), under a cap of one
     * group of ranks: every answer equals MR's, the server never runs more than one group at a time, and
     * stages did wait for it, the DAG session's queued by Hive's estimate of their size.
     */
    @Test
    void twoSessionsWithParallelStagesGetTheAnswersOfMrWithinTheCapOnGroups() throws Exception {
        String union = "SELECT category, count(*) FROM sales WHERE id % 2 = 0 GROUP BY category UNION ALL "
                + "SELECT category, count(*) FROM sales WHERE id % 2 = 1 GROUP BY category";
        List<String> queries = List.of(GROUP_BY, JOIN, union);
        Map<String, List<String>> expected = new HashMap<>();
        for (String query : queries) {
            expected.put(query, sorted(rowsOnMr(query)));
        }
        AtomicInteger mostGroups = new AtomicInteger();
        AtomicReference<List<String>> busiest = new AtomicReference<>(List.of());
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                List<String> launchers = launchersRunning();
                if (launchers.size() > mostGroups.get()) {
                    mostGroups.set(launchers.size());
                    busiest.set(launchers);
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.start();
        ExecutorService clients = Executors.newFixedThreadPool(2);
        try {
            Map<String, Future<Integer>> waits = new HashMap<>();
            for (String shape : List.of("dag", "mapreduce")) {
                waits.put(shape, clients.submit(() -> {
                    int waited = 0;
                    try (Connection connection = connect(); Statement statement = connection.createStatement()) {
                        for (String setting : List.of("hive.execution.engine=datampi", "hive.datampi.plan=" + shape,
                                "hive.exec.parallel=true", "hive.datampi.groups.max=1")) {
                            statement.execute("SET " + setting);
                        }
                        for (int i = 0; i < 9; i++) {
                            String query = queries.get(i % queries.size());
                            assertEquals(expected.get(query), sorted(rows(statement, query)), shape + " " + query);
                            String log = String.join("\n", ((HiveStatement) statement).getQueryLog());
                            assertTrue(log.contains("job_datampi"), "ran on datampi: " + log);
                            // The queue ranks a DAG stage by Hive's estimate (its plan has statistics); the
                            // MapReduce shape's plan has none, and its stages are queued as the largest.
                            for (String line : log.split("\n")) {
                                if (line.contains("waits for a free group of ranks")) {
                                    assertEquals(shape.equals("dag"), QUEUED_BY_ESTIMATE.matcher(line).find(), line);
                                    waited++;
                                }
                            }
                        }
                    }
                    return waited;
                }));
            }
            // The MapReduce session's stages hold the group for seconds at a time: the DAG session's wait for it.
            assertTrue(waits.get("dag").get(10, TimeUnit.MINUTES) > 0, "the DAG session's stages waited for the group");
            waits.get("mapreduce").get(10, TimeUnit.MINUTES);
        } finally {
            clients.shutdownNow();
            sampling.set(false);
            sampler.join();
        }
        assertEquals(1, mostGroups.get(), "groups of ranks at once: " + busiest.get());
    }

    /**
     * The groups of ranks the server runs: the launchers (mpirun) whose children are rank JVMs. A rank's own child
     * (Hadoop's Shell, between posix_spawn and exec) briefly carries the rank's command line: it is no launcher.
     */
    private List<String> launchersRunning() {
        Set<Long> ranks = server.descendants()
                .filter(p -> p.info().command().orElse("").endsWith("/java")
                        && p.info().commandLine().orElse("").contains("org.datampi.runtime.CommonProcess"))
                .map(ProcessHandle::pid).collect(Collectors.toSet());
        return ranks.stream().map(rank -> ProcessHandle.of(rank).flatMap(ProcessHandle::parent))
                .flatMap(Optional::stream).filter(parent -> !ranks.contains(parent.pid())).distinct()
                .map(parent -> parent.pid() + " " + parent.info().command().orElse("?")).toList();
    }

    private static List<String> sorted(List<String> rows) {
        return rows.stream().sorted().toList();
    }

    /**
     * HiveServer2's SET has no hook: a wrong datampi value is refused when the next statement compiles, naming the key
     * and what it accepts, before anything runs; once corrected, the session goes on.
     */
    @Test
    void aWrongDatampiSettingIsRefusedBeforeTheNextStatementRuns() throws Exception {
        String count = "SELECT count(*) FROM sales";
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET hive.execution.engine=datampi");
            statement.execute("SET hive.datampi.sendqueue=none");
            SQLException error = assertThrows(SQLException.class, () -> statement.executeQuery(count));
            assertTrue(error.getMessage().contains("Invalid value 'none' for hive.datampi.sendqueue: expected a "
                    + "positive number of blocks"), error.getMessage());
            statement.execute("SET hive.datampi.sendqueue=6");
            assertEquals(rowsOnMr(count), rows(statement, count));
            String log = String.join("\n", ((HiveStatement) statement).getQueryLog());
            assertTrue(log.contains("job_datampi"), "ran on datampi: " + log);
        }
    }

    /**
     * Statement.cancel() of a running query that does not end within the cancel grace (hive.datampi.cancel.grace, 5 s)
     * stops its ranks; the session goes on.
     */
    @Test
    void cancellingARunningQueryStopsItsRanks() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET hive.execution.engine=datampi");
            ExecutorService client = Executors.newSingleThreadExecutor();
            try {
                // About 50 s: each row sleeps 10 ms (an argument from a column: a constant one would sleep once per
                // batch of rows).
                Future<List<String>> slow = client.submit(() -> rows(statement, "SELECT count(*) FROM sales WHERE "
                        + "reflect('java.lang.Thread', 'sleep', cast(10 + id % 2 as bigint)) IS NOT NULL"));
                List<ProcessHandle> ranks = awaitRanks();
                TimeUnit.SECONDS.sleep(3);
                long cancelled = System.nanoTime();
                statement.cancel();
                // Hive's driver reports a query whose operation the cancel closed as complete, without rows (or
                // fails it, by its state when the client polls): either way no answer.
                try {
                    List<String> answer = slow.get(30, TimeUnit.SECONDS);
                    assertEquals(List.of(), answer, "the cancelled query gives no answer");
                } catch (ExecutionException e) {
                    assertTrue(e.getCause() instanceof SQLException, String.valueOf(e.getCause()));
                }
                for (ProcessHandle rank : ranks) {
                    rank.onExit().get(10, TimeUnit.SECONDS);
                }
                long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - cancelled);
                assertTrue(seconds < 15, "the ranks ended " + seconds + " s after the cancel");
            } finally {
                client.shutdownNow();
            }
            assertEquals(List.of("5000"), rows(statement, "SELECT count(*) FROM sales"), "the session goes on");
        }
    }

    /**
     * A query cancelled in one session (Statement.cancel(), or the session closed mid-query, which HiveServer2 does by
     * interrupting the query's thread) whose job ends within the cancel grace leaves the group of ranks that every
     * session shares warm: another session's next query runs on the same rank processes, with no new group's start.
     */
    @Test
    void aCancelInOneSessionLeavesTheSharedGroupWarmForAnother() throws Exception {
        try (Connection other = connect(); Statement otherStatement = other.createStatement()) {
            otherStatement.execute("SET hive.execution.engine=datampi");
            rows(otherStatement, GROUP_BY);
            Set<Long> warm = pids(awaitRanks());
            int keptBefore = countInOutput(RANKS_STAYED);
            for (boolean closeSession : List.of(false, true)) {
                // The statement is the connection's: closing the connection (a second close does nothing) ends both.
                try (Connection cancelling = connect()) {
                    Statement statement = cancelling.createStatement();
                    statement.execute("SET hive.execution.engine=datampi");
                    statement.execute("SET hive.datampi.cancel.grace=60");
                    ExecutorService client = Executors.newSingleThreadExecutor();
                    try {
                        // About 8 s: each row sleeps 1 or 2 ms.
                        Future<List<String>> slow = client.submit(() -> rows(statement, "SELECT count(*) FROM sales "
                                + "WHERE reflect('java.lang.Thread', 'sleep', cast(1 + id % 2 as bigint)) IS NOT NULL"));
                        awaitQueryLog((HiveStatement) statement, "job_datampi");
                        TimeUnit.SECONDS.sleep(2);
                        if (closeSession) {
                            cancelling.close();
                        } else {
                            statement.cancel();
                        }
                        try {
                            assertEquals(List.of(), slow.get(60, TimeUnit.SECONDS), "the cancelled query gives no "
                                    + "answer");
                        } catch (ExecutionException e) {
                            assertTrue(e.getCause() instanceof SQLException, String.valueOf(e.getCause()));
                        }
                    } finally {
                        client.shutdownNow();
                    }
                }
                assertEquals(List.of("5000"), rows(otherStatement, "SELECT count(*) FROM sales"));
                assertEquals(warm, pids(awaitRanks()), (closeSession ? "after the session's close" : "after the cancel")
                        + " the other session ran on the same warm ranks:\n" + output());
            }
            assertEquals(keptBefore + 2, countInOutput(RANKS_STAYED), "both cancelled stages ran on the ranks and "
                    + "ended within the grace:\n" + output());
        }
    }

    private int countInOutput(String text) {
        return output().split(Pattern.quote(text), -1).length - 1;
    }

    /**
     * Each session has a directory of its own for downloaded resources, which its close deletes: one session's close
     * leaves another's in place (a shared one made sessions that opened meanwhile fail).
     */
    @Test
    void aSessionsCloseLeavesAnothersResourceDirectory() throws Exception {
        try (Connection staying = connect(); Statement statement = staying.createStatement()) {
            Path stayingDir = resourcesDir(statement);
            Path closedDir;
            try (Connection closing = connect(); Statement closingStatement = closing.createStatement()) {
                closedDir = resourcesDir(closingStatement);
            }
            assertFalse(stayingDir.equals(closedDir), "each session its own directory: " + stayingDir);
            assertFalse(Files.exists(closedDir), "the closed session's directory went: " + closedDir);
            assertTrue(Files.isDirectory(stayingDir), "the open session's directory stays: " + stayingDir);
        }
    }

    /** The session's hive.downloaded.resources.dir, as SET shows it (Hive's variables expanded). */
    private static Path resourcesDir(Statement statement) throws SQLException {
        List<String> set = rows(statement, "SET hive.downloaded.resources.dir");
        assertEquals(1, set.size(), String.valueOf(set));
        Path dir = Path.of(set.get(0).substring(set.get(0).indexOf('=') + 1));
        assertTrue(Files.isDirectory(dir), "the session's directory exists: " + dir);
        return dir;
    }

    /** Polls the statement's operation log, as Beeline does, until a line contains TEXT (60 s at most). */
    private static void awaitQueryLog(HiveStatement statement, String text) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        StringBuilder log = new StringBuilder();
        while (!log.toString().contains(text)) {
            if (System.nanoTime() > deadline) {
                fail("no '" + text + "' in the query's log within 60 s:\n" + log);
            }
            if (statement.hasMoreLogs()) {
                statement.getQueryLog(true, 100).forEach(line -> log.append(line).append('\n'));
            }
            Thread.sleep(200);
        }
    }

    private static Set<Long> pids(List<ProcessHandle> processes) {
        return processes.stream().map(ProcessHandle::pid).collect(Collectors.toSet());
    }

    /**
     * A Beeline whose process dies in the middle of a datampi query (kill -9: its connection closes without a word):
     * HiveServer2 closes its session (hive.server2.close.session.on.disconnect, Hive's default), which cancels the
     * query, and the ranks it ran on end within seconds; the server goes on answering.
     */
    @Test
    void aClientThatDiesMidQueryHasItsRanksStopped() throws Exception {
        Path log = root.resolve("beeline-killed.err");
        Process beeline = new ProcessBuilder(HiveSession.HOME.resolve("bin/beeline").toString(), "-u", url, "-n",
                System.getProperty("user.name"), "-e", "SET hive.execution.engine=datampi; SELECT count(*) FROM sales "
                        + "WHERE reflect('java.lang.Thread', 'sleep', cast(10 + id % 2 as bigint)) IS NOT NULL;")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        java.time.Instant started = java.time.Instant.now();
        try {
            awaitStageRunning(log);
            // The ranks of this query's group: started after Beeline (an earlier test's group may still be ending).
            List<ProcessHandle> ranks = awaitRanks().stream().filter(rank -> rank.info().startInstant()
                    .map(start -> start.isAfter(started)).orElse(false)).toList();
            assertFalse(ranks.isEmpty(), "the query runs on ranks started for it:\n" + output());
            long killed = System.nanoTime();
            beeline.descendants().forEach(ProcessHandle::destroyForcibly);
            beeline.destroyForcibly();
            for (ProcessHandle rank : ranks) {
                rank.onExit().get(30, TimeUnit.SECONDS);
            }
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - killed);
            assertTrue(seconds < 15, "the ranks ended " + seconds + " s after the client died:\n" + output());
        } finally {
            beeline.descendants().forEach(ProcessHandle::destroyForcibly);
            beeline.destroyForcibly();
        }
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET hive.execution.engine=datampi");
            assertEquals(List.of("5000"), rows(statement, "SELECT count(*) FROM sales"), "the server goes on");
        }
    }

    /** Until Beeline shows the stage's progress (its tasks running), or 60 s. */
    private static void awaitStageRunning(Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.readString(log, StandardCharsets.UTF_8).contains("Stage-1 Map 1: ")) {
            if (System.nanoTime() > deadline) {
                fail("Beeline showed no progress of the stage within 60 s:\n" + Files.readString(log));
            }
            Thread.sleep(200);
        }
        TimeUnit.SECONDS.sleep(2);
    }

    /**
     * The sessions share the server's warm ranks; they stay while a session that used them is open, and end when the
     * last one closes rather than idling for 10 minutes.
     */
    @Test
    void theWarmRanksEndWhenTheLastSessionCloses() throws Exception {
        List<ProcessHandle> ranks;
        try (Connection first = connect()) {
            try (Statement firstStatement = first.createStatement()) {
                firstStatement.execute("SET hive.execution.engine=datampi");
                rows(firstStatement, GROUP_BY);
                ranks = awaitRanks();
                try (Connection second = connect(); Statement secondStatement = second.createStatement()) {
                    secondStatement.execute("SET hive.execution.engine=datampi");
                    rows(secondStatement, GROUP_BY);
                }
                TimeUnit.SECONDS.sleep(2);
                assertTrue(ranks.stream().allMatch(ProcessHandle::isAlive),
                        "the first session is open: its warm ranks stay");
                assertEquals(List.of("5000"), rows(firstStatement, "SELECT count(*) FROM sales"));
                ranks = awaitRanks();
            }
        }
        for (ProcessHandle rank : ranks) {
            rank.onExit().get(15, TimeUnit.SECONDS);
        }
    }

    /** The server's rank processes: warm ranks of earlier stages, or the ones a stage starts. */
    private List<ProcessHandle> awaitRanks() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            List<ProcessHandle> ranks = server.descendants().filter(p -> p.info().commandLine().orElse("")
                    .contains("org.datampi.runtime.CommonProcess")).toList();
            if (!ranks.isEmpty()) {
                return ranks;
            }
            Thread.sleep(200);
        }
        fail("no rank started within 60 s:\n" + output());
        return List.of();
    }

    /** Beeline with its usual options, in its own JVM. */
    @Test
    void beelineRunsQueriesOnDatampi() throws Exception {
        List<String> groupedOnMr = rowsOnMr(GROUP_BY);
        Path output = root.resolve("beeline.out");
        Process beeline = new ProcessBuilder(HiveSession.HOME.resolve("bin/beeline").toString(), "-u", url, "-n",
                System.getProperty("user.name"), "--outputformat=tsv2", "--showHeader=false", "-e",
                "SET hive.execution.engine=datampi; " + GROUP_BY + ";")
                .redirectError(root.resolve("beeline.err").toFile()).redirectOutput(output.toFile()).start();
        if (!beeline.waitFor(3, TimeUnit.MINUTES)) {
            beeline.destroyForcibly();
            fail("beeline did not end within 3 minutes");
        }
        String err = Files.readString(root.resolve("beeline.err"), StandardCharsets.UTF_8);
        assertEquals(0, beeline.exitValue(), err);
        List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8).stream()
                .filter(line -> line.contains("\t")).sorted().toList();
        assertEquals(groupedOnMr, lines, "beeline's rows:\n" + err);
        assertTrue(err.contains("job_datampi"), "beeline shows the query's log, with the datampi stage:\n" + err);
        assertTrue(err.contains("Stage-1 Map 1: ") && err.contains("Task Execution Summary"),
                "beeline shows the stage's progress lines and its summary:\n" + err);
    }

    /**
     * A JDBC client that asks for progress updates, as Beeline does, gets the datampi stage's share done: HiveServer2
     * 4.0.1 sends its table only for sessions on tez, the percentage for every engine from the session's progress
     * monitor, which only the stage sets (a new session has none: 0).
     */
    @Test
    void aJdbcClientSeesTheStagesProgress() throws Exception {
        List<Double> progress = new CopyOnWriteArrayList<>();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET hive.execution.engine=datampi");
            ((HiveStatement) statement).setInPlaceUpdateStream(new InPlaceUpdateStream() {
                private final EventNotifier notifier = new EventNotifier();

                @Override
                public void update(TProgressUpdateResp response) {
                    if (response != null) {
                        progress.add(response.getProgressedPercentage());
                    }
                }

                @Override
                public EventNotifier getEventNotifier() {
                    return notifier;
                }
            });
            assertEquals(rowsOnMr(GROUP_BY), rows(statement, GROUP_BY));
            assertTrue(String.join("\n", ((HiveStatement) statement).getQueryLog()).contains("job_datampi"),
                    "the query ran on datampi");
        }
        assertFalse(progress.isEmpty(), "the client asked for progress");
        assertEquals(1.0, progress.get(progress.size() - 1), 1e-9, "progress reported: " + progress);
    }

    /**
     * The scripts whose outcome the client can change, in the default plan shape: EverydayStatementsIT runs them all
     * in both shapes.
     */
    static Stream<Object[]> everydayRuns() {
        List<EverydayStatements.Script> scripts = new ArrayList<>(EverydayStatements.clientScripts(
                HiveSession.HOME.resolve("hive-datampi-engine/target/it-hiveserver2/everyday-directories")));
        // A transactional table's writes, under the DbTxnManager a JDBC session sets: its first script.
        scripts.add(TransactionalStatements.scripts().get(0));
        return EverydayStatements.datampiRuns(scripts)
                .filter(run -> ((EverydayStatements.Run) run[1]).shape().equals("dag"));
    }

    /**
     * The everyday statements and a transactional table's writes through JDBC, as Beeline sends them: MR's outcomes
     * on datampi (DAG shape).
     */
    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("everydayRuns")
    void everydayStatementsGiveTheOutcomesOfMr(EverydayStatements.Script script, EverydayStatements.Run run)
            throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            EverydayStatements.Client client = sql -> everydayOutcome(statement, sql);
            if (!everydayTablesMade) {
                Files.createDirectories(root.resolve("everyday-directories"));
                EverydayStatements.tables().forEach(sql -> assertNull(client.run(sql).error(), sql));
                everydayTablesMade = true;
            }
            List<EverydayStatements.Outcome> mr = everydayOnMr.computeIfAbsent(script.name(), name ->
                    EverydayStatements.runAndCompare(client, script, EverydayStatements.RUNS.get(0), null));
            EverydayStatements.runAndCompare(client, script, run, mr);
        }
    }

    private static EverydayStatements.Outcome everydayOutcome(Statement statement, String sql) {
        List<String> rows = new ArrayList<>();
        String error = null;
        try {
            if (statement.execute(sql)) {
                try (ResultSet result = statement.getResultSet()) {
                    rows.addAll(rowsOf(result));
                }
            }
        } catch (SQLException e) {
            error = e.getMessage();
        }
        String log;
        try {
            log = String.join("\n", ((HiveStatement) statement).getQueryLog());
        } catch (SQLException e) {
            log = "(no query log: " + e.getMessage() + ")";
        }
        return new EverydayStatements.Outcome(rows, error, log);
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(url, System.getProperty("user.name"), "");
    }

    /**
     * The query's rows on Hive's MR engine, in a session of their own, once per query for the class (the tables the
     * queries read never change; each is a local MR job of seconds).
     */
    private List<String> rowsOnMr(String query) throws SQLException {
        List<String> known = answersOnMr.get(query);
        if (known != null) {
            return known;
        }
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET hive.execution.engine=mr");
            List<String> rows = rows(statement, query);
            answersOnMr.put(query, rows);
            return rows;
        }
    }

    private static List<String> rows(Statement statement, String query) throws SQLException {
        try (ResultSet result = statement.executeQuery(query)) {
            return rowsOf(result).stream().sorted().toList();
        }
    }

    /** A result's rows as Hive's CLI prints them: tab-separated, NULL as NULL. */
    private static List<String> rowsOf(ResultSet result) throws SQLException {
        List<String> rows = new ArrayList<>();
        int columns = result.getMetaData().getColumnCount();
        while (result.next()) {
            List<String> values = new ArrayList<>();
            for (int i = 1; i <= columns; i++) {
                values.add(String.valueOf(result.getString(i)));
            }
            rows.add(String.join("\t", values));
        }
        return rows;
    }

    private void awaitListening(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                fail("hiveserver2-datampi exited with " + server.exitValue() + ":\n" + output());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("localhost", port), 1000);
                return;
            } catch (IOException e) {
                Thread.sleep(500);
            }
        }
        server.destroyForcibly();
        fail("hiveserver2-datampi did not listen on " + port + " within " + START_SECONDS + " s:\n" + output());
    }

    private String output() {
        try {
            return Files.readString(serverOutput, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + serverOutput + ": " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
