package org.datampi.hive.app;

import java.io.IOException;
import java.util.List;

import org.apache.tez.runtime.api.AbstractLogicalInput;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.InputContext;
import org.apache.tez.runtime.library.api.KeyValuesReader;
import org.datampi.mpid.PairReceiver;

/**
 * A sorted edge's input in a rank (DAG mode), in place of Tez's OrderedGroupedKVInput: the task's partition of the
 * edge, merged in key order, in groups of equal keys ({@link KeyGroups}), as Hive's ReduceRecordSource reads them. A
 * task starts once every task of the vertices it reads has sent everything, so the input is ready when it starts.
 */
public final class MpiShuffleInput extends AbstractLogicalInput {
    private PairReceiver pairs;

    public MpiShuffleInput(InputContext context, int physicalInputs) {
        super(context, physicalInputs);
    }

    @Override
    public List<Event> initialize() {
        HiveShuffle.requestNoMemory(getContext());
        return List.of();
    }

    @Override
    public void start() {
        getContext().inputIsReady();
    }

    @Override
    public KeyValuesReader getReader() {
        if (pairs == null) {
            pairs = MpiUnorderedInput.open(getContext());
        }
        KeyGroups groups = new KeyGroups(pairs::next);
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

    @Override
    public void handleEvents(List<Event> events) {
        // No events come to this input: its senders are known to the shuffle.
    }

    @Override
    public List<Event> close() {
        if (pairs != null) {
            pairs.close();
        }
        return List.of();
    }
}
