package org.datampi.mpid;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;

import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.datampi.shuffle.buffer.SendPartition;
import org.datampi.shuffle.engine.BlockCombiner;
import org.datampi.shuffle.pairs.PairFormat;

/** Runs a {@link Combiner} over the key groups of a sorted block, deserializing values only as it asks for them. */
final class WritableBlockCombiner implements BlockCombiner {
    private final Combiner combiner;
    private final RawComparator<?> comparator;
    private final KeyValueSerde keySerde;
    private final KeyValueSerde valueSerde;

    WritableBlockCombiner(Combiner combiner, RawComparator<?> comparator, KeyValueSerde keySerde,
            KeyValueSerde valueSerde) {
        this.combiner = requireNonNull(combiner, "combiner is null");
        this.comparator = requireNonNull(comparator, "comparator is null");
        this.keySerde = requireNonNull(keySerde, "keySerde is null");
        this.valueSerde = requireNonNull(valueSerde, "valueSerde is null");
    }

    @Override
    public int combine(SendPartition block, int[] sortedOrder, DataOutputBuffer out) throws IOException {
        byte[] data = block.data();
        int written = 0;
        int groupStart = 0;
        while (groupStart < sortedOrder.length) {
            int first = sortedOrder[groupStart];
            int groupEnd = groupStart + 1;
            while (groupEnd < sortedOrder.length && comparator.compare(data, block.keyOffset(first),
                    block.keyLength(first), data, block.keyOffset(sortedOrder[groupEnd]),
                    block.keyLength(sortedOrder[groupEnd])) == 0) {
                groupEnd++;
            }
            Object key = keySerde.deserialize(data, block.keyOffset(first), block.keyLength(first));
            int[] counter = {0};
            combiner.combine(key, values(block, sortedOrder, groupStart, groupEnd), (k, v) -> {
                write(k, v, out);
                counter[0]++;
            });
            written += counter[0];
            groupStart = groupEnd;
        }
        return written;
    }

    private Iterator<Object> values(SendPartition block, int[] order, int start, int end) {
        return new Iterator<>() {
            private int next = start;

            @Override
            public boolean hasNext() {
                return next < end;
            }

            @Override
            public Object next() {
                if (next >= end) {
                    throw new NoSuchElementException();
                }
                int pair = order[next++];
                try {
                    return valueSerde.deserialize(block.data(), block.valueOffset(pair), block.valueLength(pair));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
    }

    private void write(Object key, Object value, DataOutputBuffer out) {
        try {
            keySerde.serialize(key);
            valueSerde.serialize(value);
            PairFormat.write(out, keySerde.bytes(), 0, keySerde.length(), valueSerde.bytes(), 0,
                    valueSerde.length());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
