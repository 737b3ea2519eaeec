package org.datampi.bench.tpch;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * bin/tpch-run's console on datampi, read line by line as it arrives (ClusterTpchBench): each query's last timed run
 * is marked ("bench: begin qN run R" to "bench: qN run R on datampi: ...", WorkloadRunner), its window is when those
 * lines arrived (CLOCK), and its shuffled bytes are the SHUFFLED column of the execution summaries printed between
 * them (DagSummary: what each vertex sent over its edges). Used by one thread.
 */
final class RunConsole implements Consumer<String> {
    private static final Pattern RUN_BEGIN = Pattern.compile("bench: begin (\\S+) run \\d+");
    private static final Pattern RUN_END = Pattern.compile("bench: (\\S+) run \\d+ on datampi: .*");
    /**
     * A vertex's row of datampi's execution summary, read from its end (the name may be any of Hive's vertex
     * names): its three sizes (HDFS read, HDFS written, shuffled; powers of 1024) and where its tasks ran.
     */
    private static final Pattern VERTEX_ROW = Pattern.compile(".* [\\d,]+ +\\d+(?:\\.\\d)? [KMGTP]?B +\\d+(?:\\.\\d)? "
            + "[KMGTP]?B +(\\d+(?:\\.\\d)?) ([KMGTP]?)B +(?:-|\\d+/\\d+)");

    private final LongSupplier clock;
    private final Map<String, Window> windows = new LinkedHashMap<>();
    private final Map<String, Long> shuffled = new HashMap<>();
    private String current;
    private long begun;

    RunConsole(LongSupplier clock) {
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** When a query's last run ran, in the clock's milliseconds. */
    record Window(long from, long to) {
        Window {
            if (to < from) {
                throw new IllegalArgumentException("A window that ends before it begins: " + from + " to " + to);
            }
        }
    }

    @Override
    public void accept(String line) {
        Matcher begin = RUN_BEGIN.matcher(line);
        if (begin.matches()) {
            current = begin.group(1);
            begun = clock.getAsLong();
            shuffled.put(current, 0L);
            return;
        }
        if (current == null) {
            return;
        }
        Matcher end = RUN_END.matcher(line);
        Matcher vertex = VERTEX_ROW.matcher(line.strip());
        if (end.matches() && end.group(1).equals(current)) {
            windows.put(current, new Window(begun, clock.getAsLong()));
            current = null;
        } else if (vertex.matches()) {
            shuffled.merge(current, bytes(vertex.group(1), vertex.group(2)), Long::sum);
        }
    }

    /** Each query's last finished run's window. */
    Map<String, Window> windows() {
        return Map.copyOf(windows);
    }

    /** Each finished query's last run's shuffled bytes. */
    Map<String, Long> shuffled() {
        Map<String, Long> finished = new HashMap<>(shuffled);
        finished.keySet().retainAll(windows.keySet());
        return Map.copyOf(finished);
    }

    /** A size as datampi's summary prints it (powers of 1024): "49.1" and "M" is 49.1 MiB. */
    static long bytes(String number, String unit) {
        int power = unit.isEmpty() ? 0 : "KMGTP".indexOf(unit) + 1;
        return Math.round(Double.parseDouble(number) * Math.pow(1024, power));
    }
}
