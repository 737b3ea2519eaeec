package org.datampi.hive.app;

import org.apache.tez.runtime.api.InputContext;
import org.apache.tez.runtime.library.api.KeyValueReader;
import org.datampi.mpid.PairReceiver;

/**
 * An unsorted or broadcast edge's input in a rank (DAG mode), in place of Tez's UnorderedKVInput: the pairs of the
 * task's partition, or of the rank's copy of a broadcast edge, one by one, as Hive's hash-table loaders, semijoin
 * filters and unsorted reduce sources read them.
 */
public final class MpiUnorderedInput extends MpiEdgeInput {
    public MpiUnorderedInput(InputContext context, int physicalInputs) {
        super(context, physicalInputs);
    }

    @Override
    public KeyValueReader getReader() {
        PairReceiver pairs = pairs();
        return new KeyValueReader() {
            private Object[] pair;

            @Override
            public boolean next() {
                pair = pairs.next();
                return pair != null;
            }

            @Override
            public Object getCurrentKey() {
                return pair[0];
            }

            @Override
            public Object getCurrentValue() {
                return pair[1];
            }
        };
    }
}
