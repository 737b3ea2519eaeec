package org.datampi.shuffle;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Function;

import org.datampi.shuffle.codec.BlockCodec;

/**
 * The job-wide settings of the shuffle engine, read once per process (mpidrun passes them as -D system properties).
 *
 * @param memUsedPercent share of the heap that received data may occupy before it is spilled (paper: 0.4)
 * @param sendQueue how many encoded blocks may wait for or be in transfer per process (paper: at least 6)
 * @param blockSize bytes of serialized pairs per send block of a partition
 * @param codec compression of blocks on the wire
 * @param localDir where this process spills sorted runs
 */
public record ShuffleSettings(double memUsedPercent, int sendQueue, int blockSize, BlockCodec codec, Path localDir) {
    public static final String MEM_USED_PERCENT = "mpid.memusedpercent";
    public static final String SEND_QUEUE = "mpid.sendqueue";
    public static final String BLOCK_SIZE = "mpid.block.size";
    public static final String COMPRESSION = "mpid.compression";
    public static final String LOCAL_DIR = "mpid.local.dir";

    public static final double DEFAULT_MEM_USED_PERCENT = 0.4;
    public static final int DEFAULT_SEND_QUEUE = 6;
    public static final int DEFAULT_BLOCK_SIZE = 256 * 1024;
    private static final int MIN_BLOCK_SIZE = 4 * 1024;
    private static final int MAX_BLOCK_SIZE = 64 * 1024 * 1024;

    public ShuffleSettings {
        requireNonNull(codec, "codec is null");
        requireNonNull(localDir, "localDir is null");
        if (!(memUsedPercent > 0 && memUsedPercent <= 1)) {
            throw invalid(MEM_USED_PERCENT, String.valueOf(memUsedPercent), "a number in (0, 1], e.g. 0.4");
        }
        if (sendQueue < 1) {
            throw invalid(SEND_QUEUE, String.valueOf(sendQueue), "an integer >= 1, e.g. 6");
        }
        if (blockSize < MIN_BLOCK_SIZE || blockSize > MAX_BLOCK_SIZE) {
            throw invalid(BLOCK_SIZE, String.valueOf(blockSize),
                    "bytes between " + MIN_BLOCK_SIZE + " and " + MAX_BLOCK_SIZE);
        }
    }

    /** Reads the settings from a lookup (system properties in a rank), with the documented defaults. */
    public static ShuffleSettings from(Function<String, String> lookup, Path defaultLocalDir) {
        return new ShuffleSettings(
                parseDouble(lookup, MEM_USED_PERCENT, DEFAULT_MEM_USED_PERCENT, "a number in (0, 1], e.g. 0.4"),
                parseInt(lookup, SEND_QUEUE, DEFAULT_SEND_QUEUE, "an integer >= 1, e.g. 6"),
                parseInt(lookup, BLOCK_SIZE, DEFAULT_BLOCK_SIZE, "a number of bytes, e.g. 262144"),
                parseCodec(lookup.apply(COMPRESSION)),
                lookup.apply(LOCAL_DIR) == null ? defaultLocalDir : Path.of(lookup.apply(LOCAL_DIR)));
    }

    public static ShuffleSettings fromSystemProperties() {
        return from(System::getProperty, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** The memory budget for received data in bytes. */
    public long receiveBudgetBytes() {
        return (long) (Runtime.getRuntime().maxMemory() * memUsedPercent);
    }

    public static IllegalArgumentException invalid(String key, String value, String accepted) {
        return new IllegalArgumentException("Invalid value '" + value + "' for " + key + ": expected " + accepted);
    }

    private static double parseDouble(Function<String, String> lookup, String key, double fallback, String accepted) {
        String value = lookup.apply(key);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw invalid(key, value, accepted);
        }
    }

    private static int parseInt(Function<String, String> lookup, String key, int fallback, String accepted) {
        String value = lookup.apply(key);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw invalid(key, value, accepted);
        }
    }

    private static BlockCodec parseCodec(String value) {
        if (value == null || value.isBlank()) {
            return BlockCodec.NONE;
        }
        try {
            return BlockCodec.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw invalid(COMPRESSION, value, "one of none, lz4, zstd");
        }
    }
}
