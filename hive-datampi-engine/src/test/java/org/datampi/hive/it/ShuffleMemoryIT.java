package org.datampi.hive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A Hive query whose shuffle is twenty times and more the ranks' memory for it, on a key that holds half of all rows:
 * a shuffle join of 600,000 rows (half on one key) into a GROUP BY, with map joins and map-side aggregation off so
 * that every row crosses the shuffle (some 30 MB to each of 2 ranks), on 512 MB ranks with 0.3% of it for the
 * shuffle (under 1.5 MB for send blocks and received data together). The answer equals Hive on MR's; the ranks
 * spilled; the data they exchanged, by their own counts, was at least twenty times their shuffle budget; each rank's
 * account of its memory shows the received data within its share (plus the blocks already in flight) and the send
 * blocks within theirs, sent early when their share is used up but not in pieces; and each rank's peak resident
 * memory stayed within its heap plus {@link #RANK_OVERHEAD} (the README's bound, "What happens when ...").
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShuffleMemoryIT {
    private static final String JOIN = "SELECT d.name, count(*), sum(f.id), max(f.payload) FROM facts f JOIN dims d "
            + "ON f.k = d.k GROUP BY d.name;";
    /** Pinned below the default (1 MB): the bounds allow a few blocks beyond shares of some 0.4 and 1.2 MB. */
    private static final long BLOCK_SIZE = 256 * 1024;
    private static final Pattern RANK_LOGS = Pattern.compile("datampi: rank logs in (\\S+)");
    private static final Pattern MEMORY = Pattern.compile("peak send blocks (\\d+) of (\\d+) bytes, "
            + "peak receive cache (\\d+) of (\\d+) bytes");
    private static final Pattern SPILLED = Pattern.compile("received data spilled to local disk: (\\S+ \\S+)");
    private static final Pattern SENT = Pattern.compile("(\\d+) blocks \\((\\d+) bytes\\) sent");
    private static final Pattern PEAK_RSS = Pattern.compile("peak RSS (\\d+) bytes");
    private static final long HEAP = 512L << 20;
    /**
     * A rank's resident memory beyond its heap, the README's bound: the JVM's own (classes, compiled code, GC tables,
     * stacks), the C heap's, MPI's. Measured: 383 MB over a 2 GB heap at TPC-H scale 10, under its heap here.
     */
    private static final long RANK_OVERHEAD = 512L << 20;
    private static final int LEAST_BUDGETS_SHUFFLED = 20;
    /** What an early send must average at least: a block sent for room, not a pair (over 60 KB when measured). */
    private static final long LEAST_AVERAGE_BLOCK = 8 * 1024;

    private final Path root = HiveSession.HOME.resolve("hive-datampi-engine/target/it-shuffle-memory");

    @BeforeAll
    void createTables() throws Exception {
        FileUtil.fullyDelete(root.toFile());
        Files.createDirectories(root);
        HiveCli setup = HiveCli.start(root, "setup", "SET hive.execution.engine=mr;"
                + "CREATE TABLE facts STORED AS ORC AS SELECT pos AS id, if(pos % 2 = 0, 0, pmod(pos * 7, 4999)) AS k, "
                + "concat('payload-', pos, '-', repeat('x', pmod(pos, 31))) AS payload "
                + "FROM (SELECT posexplode(split(space(599999), ' ')) AS (pos, unused)) generated;"
                + "CREATE TABLE dims STORED AS ORC AS SELECT pos AS k, concat('name-', pos) AS name "
                + "FROM (SELECT posexplode(split(space(4999), ' ')) AS (pos, unused)) generated;");
        assertEquals(0, setup.awaitExit(), setup.output());
    }

    @Test
    void aShuffleTwentyTimesTheMemoryBudgetSpillsStaysInBoundsAndGivesMrsAnswer() throws Exception {
        String noShortcuts = "SET hive.auto.convert.join=false; SET hive.map.aggr=false; ";
        HiveCli cli = HiveCli.start(root, "skewed-join", noShortcuts
                + "SET hive.execution.engine=datampi; SET hive.datampi.heap=" + (HEAP >> 20) + "m; "
                + "SET hive.datampi.memusedpercent=0.003; SET hive.datampi.block.size=" + BLOCK_SIZE + "; "
                + "SET hive.exec.reducers.bytes.per.reducer=4000000; "
                + labelled("datampi", JOIN)
                + "SET hive.execution.engine=mr; " + labelled("mr", JOIN));
        assertEquals(0, cli.awaitExit(), cli.output());
        String output = cli.output();

        List<String> datampi = HiveCli.labelledRows(output, "datampi").stream().sorted().toList();
        assertFalse(datampi.isEmpty(), output);
        assertEquals(HiveCli.labelledRows(output, "mr").stream().sorted().toList(), datampi,
                "the same rows as Hive on MR");

        Matcher spilled = SPILLED.matcher(output);
        assertTrue(spilled.find(), "the stage's summary:\n" + output);
        assertFalse(spilled.group(1).startsWith("0 "), "the ranks spilled: " + spilled.group());

        Matcher logs = RANK_LOGS.matcher(output);
        assertTrue(logs.find(), output);
        int ranks = 0;
        long bytesSent = 0;
        long budgets = 0;
        try (Stream<Path> files = Files.list(Path.of(logs.group(1)))) {
            for (Path log : files.filter(p -> p.getFileName().toString().matches("rank-\\d+\\.log")).toList()) {
                String rankLog = Files.readString(log);
                assertTrue(rankLog.contains("blockSize=" + BLOCK_SIZE + ","),
                        "the session's hive.datampi.block.size reached the ranks: " + log);
                Matcher sent = SENT.matcher(rankLog);
                while (sent.find()) {
                    bytesSent += Long.parseLong(sent.group(2));
                    // The send share is small: blocks go early, but each as full as the share allows.
                    assertTrue(Long.parseLong(sent.group(2)) >= LEAST_AVERAGE_BLOCK * Long.parseLong(sent.group(1)),
                            "blocks of " + LEAST_AVERAGE_BLOCK + " bytes or more on average: " + sent.group());
                }
                Matcher memory = MEMORY.matcher(rankLog);
                while (memory.find()) {
                    ranks++;
                    budgets += Long.parseLong(memory.group(2)) + Long.parseLong(memory.group(4));
                    assertTrue(Long.parseLong(memory.group(1)) <= Long.parseLong(memory.group(2)) + 2 * BLOCK_SIZE,
                            "send blocks within their share: " + memory.group());
                    assertTrue(Long.parseLong(memory.group(3)) <= Long.parseLong(memory.group(4)) + 3 * BLOCK_SIZE,
                            "received runs within their share: " + memory.group());
                }
                Matcher rss = PEAK_RSS.matcher(rankLog);
                assertTrue(rss.find(), "the rank's peak resident memory in " + log);
                do {
                    assertTrue(Long.parseLong(rss.group(1)) <= HEAP + RANK_OVERHEAD, "a rank's resident memory "
                            + "within its heap of " + HEAP + " bytes plus " + RANK_OVERHEAD + ": " + rss.group());
                } while (rss.find());
            }
        }
        assertTrue(ranks > 0, "the ranks accounted for their memory in " + logs.group(1));
        // What crossed the shuffle against what the ranks had for it, both by the ranks' own counts.
        assertTrue(bytesSent >= LEAST_BUDGETS_SHUFFLED * budgets, bytesSent + " bytes shuffled, at least "
                + LEAST_BUDGETS_SHUFFLED + " times the ranks' shuffle budgets of " + budgets + " bytes together");
    }

    /** The query with LABEL as its first column, so that its rows can be told from the other engine's. */
    private static String labelled(String label, String query) {
        return query.replaceFirst("^SELECT ", "SELECT '" + label + "', ");
    }
}
