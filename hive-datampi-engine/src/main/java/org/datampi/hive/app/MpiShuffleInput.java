package org.datampi.hive.app;

import java.io.IOException;
import java.util.List;

import org.apache.tez.runtime.api.AbstractLogicalInput;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.InputContext;
import org.apache.tez.runtime.library.api.KeyValuesReader;
import org.datampi.mpid.MPI_D_Exception;

/**
 * A scatter-gather edge's input in a rank (DAG mode), in place of Tez's OrderedGroupedKVInput: the A task's pairs
 * from {@code MPI_D.Recv()}, which come merged in key order, in groups of equal keys ({@link KeyGroups}), as Hive's
 * ReduceRecordSource reads them. An A task starts once every O task has sent everything, so the input is ready as
 * soon as it starts.
 */
public final class MpiShuffleInput extends AbstractLogicalInput {
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
        KeyGroups groups = new KeyGroups();
        return new KeyValuesReader() {
            @Override
            public boolean next() throws IOException {
                try {
                    return groups.nextKey();
                } catch (MPI_D_Exception e) {
                    throw new IOException("Cannot receive the pairs of " + getContext().getSourceVertexName(), e);
                }
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
        // No events come to this input: its senders are known to MPI_D.
    }

    @Override
    public List<Event> close() {
        return List.of();
    }
}
