package org.datampi.shuffle.engine;

import java.io.IOException;

import org.apache.hadoop.io.DataOutputBuffer;
import org.datampi.shuffle.buffer.SendPartition;

/** Reduces a sorted block before it is sent (the job's combiner, bound to its key and value types). */
public interface BlockCombiner {
    /**
     * Writes the combined pairs of block, visited in sortedOrder, to out in the same key order.
     *
     * @return the number of pairs written
     */
    int combine(SendPartition block, int[] sortedOrder, DataOutputBuffer out) throws IOException;
}
