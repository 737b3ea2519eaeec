package org.datampi.hive.app;

import java.util.List;

import org.apache.tez.runtime.api.AbstractLogicalInput;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.InputContext;
import org.apache.tez.runtime.library.api.KeyValueReader;
import org.datampi.hive.dag.DagEdges;
import org.datampi.mpid.PairReceiver;

/**
 * An unsorted or broadcast edge's input in a rank (DAG mode), in place of Tez's UnorderedKVInput: the pairs of the
 * task's partition, or of the rank's copy of a broadcast edge, one by one, as Hive's hash-table loaders, semijoin
 * filters and unsorted reduce sources read them. Ready when the task starts, as {@link MpiShuffleInput} is.
 */
public final class MpiUnorderedInput extends AbstractLogicalInput {
    private PairReceiver pairs;

    public MpiUnorderedInput(InputContext context, int physicalInputs) {
        super(context, physicalInputs);
    }

    /** What the input's task receives of its edge. */
    static PairReceiver open(InputContext context) {
        DagEdges edges = DagEdges.of(context.getObjectRegistry());
        return edges.receiver(edges.edgeInto(context.getTaskVertexName(), context.getSourceVertexName()),
                context.getTaskIndex());
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
    public KeyValueReader getReader() {
        if (pairs == null) {
            pairs = open(getContext());
        }
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
