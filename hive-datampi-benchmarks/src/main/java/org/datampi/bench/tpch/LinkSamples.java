package org.datampi.bench.tpch;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What each simulated host had sent over its link at moments of a run (its kernel's byte counter, sampled by
 * {@link LinkSampler}), and what a window of the run made of them: the bytes the busiest host sent, and the busiest
 * host's highest rate over any stretch of a given length.
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
     * The most bytes one host sent between FROM and TO (epoch milliseconds): from the last sample at or before FROM to
     * the first at or after TO, so the window is covered whole (and a sampling interval more at most). 0 when the
     * samples do not cover the window.
     */
    long busiestSent(long from, long to) {
        int first = lastAtOrBefore(from);
        int last = firstAtOrAfter(to);
        if (first < 0 || last < 0 || last <= first) {
            return 0;
        }
        long most = 0;
        for (int host = 0; host < hosts(); host++) {
            most = Math.max(most, sent(last, host) - sent(first, host));
        }
        return most;
    }

    /**
     * The highest rate (bytes per second) at which one host sent over any stretch of at least WINDOW milliseconds
     * between samples within FROM and TO: the link's busiest moment. 0 when no such stretch lies within the window.
     */
    double busiestRate(long from, long to, long windowMillis) {
        if (windowMillis <= 0) {
            throw new IllegalArgumentException("The window must be positive: " + windowMillis);
        }
        double most = 0;
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
            for (int host = 0; host < hosts(); host++) {
                most = Math.max(most, (sent(end, host) - sent(start, host)) / seconds);
            }
        }
        return most;
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
