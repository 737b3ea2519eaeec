package org.datampi.mpid;

/** A partition's received pairs in key order ({@link StageRuntime#receiver}). Not thread-safe. */
public interface PairReceiver extends AutoCloseable {
    /** The next pair {key, value} (new objects every time), or null after the last. */
    Object[] next();

    @Override
    void close();
}
