package org.datampi.hive.app;

import java.util.Iterator;
import java.util.NoSuchElementException;

import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.WritableComparator;
import org.datampi.mpid.MPI_D;
import org.datampi.mpid.MPI_D_Exception;

/**
 * The pairs of an A task's {@code MPI_D.Recv()}, which come in key order, grouped into (key, values) as Hadoop's
 * reduce side presents them to ExecReducer: a group is a run of keys with equal bytes. Recv returns new objects for
 * every pair, so a group's key and values stay valid while the next pairs are read.
 */
final class KeyGroups {
    /** The next pair not yet handed out, or null after the last. */
    private Object[] pending;
    private BytesWritable key;
    private boolean started;

    /** Moves to the next key, skipping values of the current one that were not read; false after the last. */
    boolean nextKey() throws MPI_D_Exception {
        if (!started) {
            pending = MPI_D.Recv();
            started = true;
        }
        while (pending != null && key != null && inCurrentGroup(pending)) {
            pending = MPI_D.Recv();
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

    /** The current key's values, read from MPI_D.Recv() as the iterator advances. */
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
                    pending = MPI_D.Recv();
                } catch (MPI_D_Exception e) {
                    throw new IllegalStateException("MPI_D.Recv failed in the middle of a key group", e);
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
