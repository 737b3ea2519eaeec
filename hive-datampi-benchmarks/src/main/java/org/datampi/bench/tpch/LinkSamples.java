package org.datampi.bench.tpch;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * What each simulated host had sent over its link at moments of a run (its kernel's byte counter, sampled by
 * {@link LinkSampler}), and what a window of the run made of them: the host that sent the most and how much, and a
 * host's highest rate over any stretch of a given length (a second: long enough to hold many of the shaper's bursts,
 * short enough to show a shuffle's busiest moment within a query of a few seconds).
 *
 * @param samples in the order they were taken, every one with a counter per host, hosts in the same order
 */
record LinkSamples(List<Sample> samples) {
    LinkSamples {
        samples = List.copyOf(requireNonNull(samples, "samples is null"));
        for (int i = 1; i < samples.size(); i++) {
            if (samples.get(i).epochMillis() < samples.get(i - 1).epochMillis()
                    || samples.get(i).sentBytes().size() != samples.get(0).sentBytes().size()) {
                throw new IllegalArgumentException("Samples out of order or with other hosts: " + samples.get(i));
            }
        }
    }

    /**
     * One reading of every host's counter.
     *
     * @param sentBytes per host, the bytes it had sent since its link came up
     */
    record Sample(long epochMillis, List<Long> sentBytes) {
        Sample {
            sentBytes = List.copyOf(requireNonNull(sentBytes, "sentBytes is null"));
        }
    }

    /**
     * The host that sent the most between FROM and TO (epoch milliseconds), and how much: from the last sample at or
     * before FROM to the first at or after TO, so the window is covered whole (and a sampling interval more at most).
     * Empty when the samples do not cover the window.
     */
    Optional<Busiest> busiest(long from, long to) {
        int first = lastAtOrBefore(from);
        int last = firstAtOrAfter(to);
        if (first < 0 || last < 0 || last <= first) {
            return Optional.empty();
        }
        int host = 0;
        for (int other = 1; other < hosts(); other++) {
            if (sent(last, other) - sent(first, other) > sent(last, host) - sent(first, host)) {
                host = other;
            }
        }
        return Optional.of(new Busiest(host, sent(last, host) - sent(first, host)));
    }

    /** A host (its index in the samples) and the bytes it sent in a window. */
    record Busiest(int host, long sentBytes) {
    }

    /**
     * HOST's highest rate (bytes per second) over any stretch of at least WINDOW milliseconds between samples
     * within FROM and TO: its link's busiest moment. Empty when no such stretch lies within the window.
     */
    OptionalDouble peakRate(int host, long from, long to, long windowMillis) {
        if (windowMillis <= 0) {
            throw new IllegalArgumentException("The window must be positive: " + windowMillis);
        }
        OptionalDouble most = OptionalDouble.empty();
        int end = 0;
        for (int start = 0; start < samples.size(); start++) {
            long startMillis = samples.get(start).epochMillis();
            if (startMillis < from) {
                continue;
            }
            end = Math.max(end, start);
            while (end < samples.size() && samples.get(end).epochMillis() - startMillis < windowMillis) {
                end++;
            }
            if (end >= samples.size() || samples.get(end).epochMillis() > to) {
                break;
            }
            double seconds = (samples.get(end).epochMillis() - startMillis) / 1e3;
            double rate = (sent(end, host) - sent(start, host)) / seconds;
            most = OptionalDouble.of(Math.max(rate, most.orElse(0)));
        }
        return most;
    }

    /** The samples as CSV lines, a header first: epoch_millis, then each host's sent bytes. */
    List<String> csv(List<String> hostNames) {
        List<String> lines = new ArrayList<>(List.of("epoch_millis," + String.join(",", hostNames)));
        for (Sample sample : samples) {
            lines.add(sample.epochMillis() + "," + sample.sentBytes().stream().map(String::valueOf)
                    .collect(Collectors.joining(",")));
        }
        return lines;
    }

    private int hosts() {
        return samples.isEmpty() ? 0 : samples.get(0).sentBytes().size();
    }

    private long sent(int sample, int host) {
        return samples.get(sample).sentBytes().get(host);
    }

    private int lastAtOrBefore(long millis) {
        int found = -1;
        for (int i = 0; i < samples.size() && samples.get(i).epochMillis() <= millis; i++) {
            found = i;
        }
        return found;
    }

    private int firstAtOrAfter(long millis) {
        for (int i = 0; i < samples.size(); i++) {
            if (samples.get(i).epochMillis() >= millis) {
                return i;
            }
        }
        return -1;
    }
}
