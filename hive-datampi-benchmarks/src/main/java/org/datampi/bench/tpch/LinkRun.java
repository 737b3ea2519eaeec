package org.datampi.bench.tpch;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The TPC-H queries' run at one link rate on the simulated cluster (ClusterTpchBench).
 *
 * @param exit bin/tpch-run's exit
 * @param seconds each query's median time over its succeeded timed runs
 * @param windows when each query's last timed run ran (epoch milliseconds)
 * @param shuffled what each query's last run's vertices sent over their edges (the ranks' counters)
 * @param samples every host's link counter over the run
 */
record LinkRun(int exit, Map<String, Double> seconds, Map<String, RunConsole.Window> windows,
        Map<String, Long> shuffled, LinkSamples samples) {
    /** A host's highest rate over a stretch this long is its peak: see LinkSamples. */
    static final long PEAK_WINDOW_MILLIS = 1000;

    LinkRun {
        seconds = Map.copyOf(requireNonNull(seconds, "seconds is null"));
        windows = Map.copyOf(requireNonNull(windows, "windows is null"));
        shuffled = Map.copyOf(requireNonNull(shuffled, "shuffled is null"));
        requireNonNull(samples, "samples is null");
    }

    /** The host that sent the most over its link while the query's last run ran. */
    Optional<LinkSamples.Busiest> busiest(String workload) {
        RunConsole.Window window = windows.get(workload);
        return window == null ? Optional.empty() : samples.busiest(window.from(), window.to());
    }

    /** That host's highest rate over a second of the query's last run, in bytes per second. */
    OptionalDouble busiestPeakRate(String workload) {
        RunConsole.Window window = windows.get(workload);
        return busiest(workload).map(busiest -> samples.peakRate(busiest.host(), window.from(), window.to(),
                PEAK_WINDOW_MILLIS)).orElse(OptionalDouble.empty());
    }
}
