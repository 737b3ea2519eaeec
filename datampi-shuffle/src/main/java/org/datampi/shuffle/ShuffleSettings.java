package org.datampi.shuffle;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;

import org.datampi.shuffle.codec.BlockCodec;

/**
 * The job-wide settings of the shuffle engine, read once per process (mpidrun passes them as -D system properties).
 *
 * @param memUsedPercent share of the heap for the shuffle's data (paper: 0.4): a quarter for the blocks being filled,
 *     the rest for received data, which spills beyond it (ShuffleMemory)
 * @param sendQueue how many encoded blocks may wait for or be in transfer per process (paper: at least 6)
 * @param blockSize bytes of serialized pairs per send block of a partition
 * @param codec compression of blocks on the wire
 * @param localDir where this process spills sorted runs
 * @param livenessTimeoutSeconds how long a rank may go unheard before the job fails as having lost it
 * @param mergeFactor at most this many spilled runs of a partition are read at once; more are merged down first
 * @param localityWaitSeconds how long rank 0 holds a task that prefers hosts for their ranks after a stage's first
 *     request (org.datampi.runtime.OTaskScheduler's delay scheduling; 0: not at all)
 */
public record ShuffleSettings(double memUsedPercent, int sendQueue, int blockSize, BlockCodec codec, Path localDir,
        int livenessTimeoutSeconds, int mergeFactor, int localityWaitSeconds) {
    public static final String MEM_USED_PERCENT = "mpid.memusedpercent";
    public static final String SEND_QUEUE = "mpid.sendqueue";
    public static final String BLOCK_SIZE = "mpid.block.size";
    public static final String COMPRESSION = "mpid.compression";
    public static final String LOCAL_DIR = "mpid.local.dir";
    public static final String LIVENESS_TIMEOUT = "mpid.liveness.timeout";
    public static final String MERGE_FACTOR = "mpid.merge.factor";
    public static final String LOCALITY_WAIT = "mpid.locality.wait";

    public static final double DEFAULT_MEM_USED_PERCENT = 0.4;
    public static final int DEFAULT_SEND_QUEUE = 6;
    /**
     * 1 MB: each block arrives as one sorted run, and an A task merges its partition's runs when it spills and when it
     * reads, so four times fewer runs than at 256 KB make those merges shallower (TPC-DS at scale 10: q22, which
     * spills 5.7 GB, 12% faster, q67 7%; 4 MB no faster again: BENCHMARKS.md, "Send block size").
     */
    public static final int DEFAULT_BLOCK_SIZE = 1024 * 1024;
    /** Seconds: well past a full GC of a rank's heap, well inside the 30 s within which a lost host must end a job. */
    public static final int DEFAULT_LIVENESS_TIMEOUT = 15;
    /** Tez's tez.runtime.io.sort.factor: far below a process's usual 1,024 open files. */
    public static final int DEFAULT_MERGE_FACTOR = 100;
    /**
     * Seconds, Spark's spark.locality.wait: long enough for a host's ranks to ask for a stage's first tasks (at a
     * job's start they come straight from its set-up, in fresh JVMs usually a second or so apart; a DAG's rank asks
     * once it is through the stages before), short against a stage's run. Where ranks come up slower (a loaded
     * machine: CI's saw a fresh group's ranks ask 6 s apart), mpid.locality.wait gives them longer.
     */
    public static final int DEFAULT_LOCALITY_WAIT = 3;
    private static final int MIN_BLOCK_SIZE = 4 * 1024;
    private static final int MAX_BLOCK_SIZE = 64 * 1024 * 1024;
    /** What {@link #BLOCK_SIZE} accepts, for the messages that refuse another value. */
    public static final String BLOCK_SIZE_ACCEPTED = "bytes between " + MIN_BLOCK_SIZE + " and " + MAX_BLOCK_SIZE;

    public ShuffleSettings {
        requireNonNull(codec, "codec is null");
        requireNonNull(localDir, "localDir is null");
        if (!(memUsedPercent > 0 && memUsedPercent <= 1)) {
            throw invalid(MEM_USED_PERCENT, String.valueOf(memUsedPercent), "a number in (0, 1], e.g. 0.4");
        }
        if (sendQueue < 1) {
            throw invalid(SEND_QUEUE, String.valueOf(sendQueue), "an integer >= 1, e.g. 6");
        }
        if (!validBlockSize(blockSize)) {
            throw invalid(BLOCK_SIZE, String.valueOf(blockSize), BLOCK_SIZE_ACCEPTED);
        }
        if (livenessTimeoutSeconds < 2) {
            throw invalid(LIVENESS_TIMEOUT, String.valueOf(livenessTimeoutSeconds), "seconds >= 2, e.g. 15");
        }
        if (mergeFactor < 2) {
            throw invalid(MERGE_FACTOR, String.valueOf(mergeFactor), "an integer >= 2, e.g. 100");
        }
        if (localityWaitSeconds < 0) {
            throw invalid(LOCALITY_WAIT, String.valueOf(localityWaitSeconds), "seconds >= 0, e.g. 3");
        }
    }

    /** Reads the settings from a lookup (system properties in a rank), with the documented defaults. */
    public static ShuffleSettings from(Function<String, String> lookup, Path defaultLocalDir) {
        String localDir = lookup.apply(LOCAL_DIR);
        return new ShuffleSettings(
                parse(lookup, MEM_USED_PERCENT, DEFAULT_MEM_USED_PERCENT, Double::valueOf, v -> v > 0 && v <= 1,
                        "a number in (0, 1], e.g. 0.4"),
                parse(lookup, SEND_QUEUE, DEFAULT_SEND_QUEUE, Integer::valueOf, v -> v >= 1,
                        "an integer >= 1, e.g. 6"),
                parse(lookup, BLOCK_SIZE, DEFAULT_BLOCK_SIZE, Integer::valueOf, ShuffleSettings::validBlockSize,
                        BLOCK_SIZE_ACCEPTED),
                parse(lookup, COMPRESSION, BlockCodec.NONE, v -> BlockCodec.valueOf(v.toUpperCase(Locale.ROOT)),
                        v -> true, "one of none, lz4, zstd"),
                localDir == null || localDir.isBlank() ? defaultLocalDir : Path.of(localDir),
                parse(lookup, LIVENESS_TIMEOUT, DEFAULT_LIVENESS_TIMEOUT, Integer::valueOf, v -> v >= 2,
                        "seconds >= 2, e.g. 15"),
                parse(lookup, MERGE_FACTOR, DEFAULT_MERGE_FACTOR, Integer::valueOf, v -> v >= 2,
                        "an integer >= 2, e.g. 100"),
                parse(lookup, LOCALITY_WAIT, DEFAULT_LOCALITY_WAIT, Integer::valueOf, v -> v >= 0,
                        "seconds >= 0, e.g. 3"));
    }

    public static ShuffleSettings fromSystemProperties() {
        return from(System::getProperty, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** Whether {@link #BLOCK_SIZE} accepts this many bytes per send block. */
    public static boolean validBlockSize(int bytes) {
        return bytes >= MIN_BLOCK_SIZE && bytes <= MAX_BLOCK_SIZE;
    }

    /** The shuffle's memory budget in bytes, its share of this process's heap. */
    public long memoryBudgetBytes() {
        return (long) (Runtime.getRuntime().maxMemory() * memUsedPercent);
    }

    public static IllegalArgumentException invalid(String key, String value, String accepted) {
        return new IllegalArgumentException("Invalid value '" + value + "' for " + key + ": expected " + accepted);
    }

    private static <T> T parse(Function<String, String> lookup, String key, T fallback, Function<String, T> parser,
            Predicate<T> valid, String accepted) {
        String value = lookup.apply(key);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        T parsed;
        try {
            parsed = parser.apply(value.trim());
        } catch (IllegalArgumentException e) {
            throw invalid(key, value, accepted);
        }
        if (!valid.test(parsed)) {
            throw invalid(key, value, accepted);
        }
        return parsed;
    }
}
