package org.datampi.mpid;

import java.io.IOException;
import java.util.Iterator;
import java.util.function.BiConsumer;

/**
 * Combines the values of one key in a block on the O side before it is sent, like a Hadoop combiner. It must emit
 * pairs with the key it was given (the block stays sorted). Needs a public no-arg constructor.
 */
@FunctionalInterface
public interface Combiner {
    void combine(Object key, Iterator<Object> values, BiConsumer<Object, Object> output) throws IOException;
}
