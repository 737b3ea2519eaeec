package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * This rank's log file, where conf/datampi-log4j2.properties puts it: {@code <datampi.log.dir>/rank-<datampi.rank>.log}
 * (mpidrun sets the first, {@link CommonProcess} the second).
 */
record RankLog(Path path) {
    static final String LOG_DIR_PROPERTY = "datampi.log.dir";
    /** How much of the log's end is read for its last lines: a failure report, not the whole log. */
    private static final int TAIL_BYTES = 16_384;
    /**
     * A line of the tail is cut after this many characters: one log line may be huge (Hive's error for a vectorized
     * batch names its rows), and the tail goes into the query's error message.
     */
    static final int MAX_LINE_CHARS = 1_000;

    RankLog {
        requireNonNull(path, "path is null");
    }

    /** This rank's log, when the properties name one that exists. */
    static Optional<RankLog> current() {
        String dir = System.getProperty(LOG_DIR_PROPERTY);
        String rank = System.getProperty(CommonProcess.RANK_PROPERTY);
        if (dir == null || rank == null) {
            return Optional.empty();
        }
        Path path = Path.of(dir, "rank-" + rank + ".log");
        return Files.isReadable(path) ? Optional.of(new RankLog(path)) : Optional.empty();
    }

    /**
     * The log's last LINES lines (fewer when it is short), each cut to {@link #MAX_LINE_CHARS}; a line cut by the
     * window's start only when it is all the window holds; none when the log cannot be read.
     */
    List<String> tail(int lines) {
        // java.io, not a FileChannel: a failing task may leave this thread interrupted (Tez's runtime does), and an
        // interrupted thread's channel closes at its first read, which lost the tail of every DAG task's failure.
        try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "r")) {
            long size = file.length();
            long from = Math.max(0, size - TAIL_BYTES);
            byte[] end = new byte[(int) (size - from)];
            file.seek(from);
            file.readFully(end);
            List<String> all = Arrays.asList(new String(end, StandardCharsets.UTF_8).split("\n"));
            // A line cut by the window's start is not shown, unless it is all there is: the end of a huge line.
            List<String> whole = from > 0 && all.size() > 1 ? all.subList(1, all.size()) : all;
            return whole.subList(Math.max(0, whole.size() - lines), whole.size()).stream()
                    .map(line -> line.length() <= MAX_LINE_CHARS ? line : line.substring(0, MAX_LINE_CHARS) + " ...")
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
