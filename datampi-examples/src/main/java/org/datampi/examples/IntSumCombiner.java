package org.datampi.examples;

import java.util.Iterator;
import java.util.function.BiConsumer;

import org.apache.hadoop.io.IntWritable;
import org.datampi.mpid.Combiner;

/** Sums IntWritable counts of a key. */
public final class IntSumCombiner implements Combiner {
    @Override
    public void combine(Object key, Iterator<Object> values, BiConsumer<Object, Object> output) {
        int sum = 0;
        while (values.hasNext()) {
            sum += ((IntWritable) values.next()).get();
        }
        output.accept(key, new IntWritable(sum));
    }
}
