package org.datampi.mpid;

import static java.util.Objects.requireNonNull;

/**
 * A bipartite communicator as a task sees it: its side (O or A), its task id on that side and the number of
 * tasks on that side.
 */
public record Comm(Side side, int rank, int size) {
    public enum Side { O, A }

    public Comm {
        requireNonNull(side, "side is null");
        if (rank < 0 || rank >= size) {
            throw new IllegalArgumentException("task " + rank + " is outside 0.." + (size - 1));
        }
    }
}
