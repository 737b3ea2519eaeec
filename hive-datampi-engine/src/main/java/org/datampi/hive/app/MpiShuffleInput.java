package org.datampi.hive.app;

import java.io.IOException;

import org.apache.tez.runtime.api.InputContext;
import org.apache.tez.runtime.library.api.KeyValuesReader;

/**
 * A sorted edge's input in a rank (DAG mode), in place of Tez's OrderedGroupedKVInput: the task's partition of the
 * edge, merged in key order, in groups of equal keys ({@link KeyGroups}), as Hive's ReduceRecordSource reads them.
 */
public final class MpiShuffleInput extends MpiEdgeInput {
    public MpiShuffleInput(InputContext context, int physicalInputs) {
        super(context, physicalInputs);
    }

    @Override
    public KeyValuesReader getReader() {
        KeyGroups groups = new KeyGroups(pairs()::next);
        return new KeyValuesReader() {
            @Override
            public boolean next() throws IOException {
                return groups.nextKey();
            }

            @Override
            public Object getCurrentKey() {
                return groups.key();
            }

            @Override
            public Iterable<Object> getCurrentValues() {
                return groups::values;
            }
        };
    }
}
