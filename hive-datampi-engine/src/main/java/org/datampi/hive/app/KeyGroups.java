package org.datampi.hive.app;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;

import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.WritableComparator;

/**
 * Pairs that come in key order, grouped into (key, values) as Hadoop's reduce side presents them to ExecReducer and
 * Tez's grouped input to ReduceRecordSource: a group is a run of keys with equal bytes. The source returns new objects
 * for every pair, so a group's key and values stay valid while the next pairs are read.
 */
final class KeyGroups {
    /** The pairs {key, value} in key order, a new array for each; null after the last. */
    @FunctionalInterface
    interface Pairs {
        Object[] next() throws IOException;
    }

    private final Pairs source;
    /** The next pair not yet handed out, or null after the last. */
    private Object[] pending;
    private BytesWritable key;
    private boolean started;

    KeyGroups(Pairs source) {
        this.source = requireNonNull(source, "source is null");
    }

    /** Moves to the next key, skipping values of the current one that were not read; false after the last. */
    boolean nextKey() throws IOException {
        if (!started) {
            pending = source.next();
            started = true;
        }
        while (pending != null && key != null && inCurrentGroup(pending)) {
            pending = source.next();
        }
        if (pending == null) {
            return false;
        }
        key = (BytesWritable) pending[0];
        return true;
    }

    BytesWritable key() {
        return key;
    }

    /** The current key's values, read from the source as the iterator advances. */
    Iterator<Object> values() {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return pending != null && inCurrentGroup(pending);
            }

            @Override
            public Object next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Object value = pending[1];
                try {
                    pending = source.next();
                } catch (IOException e) {
                    throw new UncheckedIOException("Reading the pairs failed in the middle of a key group", e);
                }
                return value;
            }
        };
    }

    private boolean inCurrentGroup(Object[] pair) {
        BytesWritable other = (BytesWritable) pair[0];
        return WritableComparator.compareBytes(key.getBytes(), 0, key.getLength(), other.getBytes(), 0,
                other.getLength()) == 0;
    }
}
