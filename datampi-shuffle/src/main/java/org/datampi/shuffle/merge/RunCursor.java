package org.datampi.shuffle.merge;

import java.io.Closeable;

/**
 * A forward cursor over a sorted run of serialized pairs. The key and value accessors describe the current pair
 * and stay valid only until the next call to {@link #next()}.
 */
public interface RunCursor extends Closeable {
    /** Moves to the next pair; false at the end of the run. */
    boolean next();

    byte[] keyBuffer();

    int keyOffset();

    int keyLength();

    byte[] valueBuffer();

    int valueOffset();

    int valueLength();

    @Override
    void close();
}
