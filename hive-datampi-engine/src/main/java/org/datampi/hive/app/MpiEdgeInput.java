package org.datampi.hive.app;

import java.util.List;

import org.apache.tez.runtime.api.AbstractLogicalInput;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.InputContext;
import org.datampi.hive.dag.DagEdges;
import org.datampi.mpid.PairReceiver;

/**
 * What an edge's input in a rank (DAG mode) is, however it presents its pairs ({@link MpiShuffleInput} in groups,
 * {@link MpiUnorderedInput} one by one): the pairs the shuffle delivered to this rank for the task's partition of the
 * edge, or the rank's copy of a broadcast edge. A task starts once every task of the vertices it reads has sent
 * everything, so the input is ready when it starts; it has no events, its senders being known to the shuffle.
 */
abstract class MpiEdgeInput extends AbstractLogicalInput {
    private PairReceiver pairs;

    MpiEdgeInput(InputContext context, int physicalInputs) {
        super(context, physicalInputs);
    }

    @Override
    public final List<Event> initialize() {
        HiveShuffle.requestNoMemory(getContext());
        return List.of();
    }

    @Override
    public final void start() {
        getContext().inputIsReady();
    }

    /** The task's pairs of the edge, opened on first use. */
    final PairReceiver pairs() {
        if (pairs == null) {
            InputContext context = getContext();
            DagEdges edges = DagEdges.of(context.getObjectRegistry());
            pairs = edges.receiver(edges.edgeInto(context.getTaskVertexName(), context.getSourceVertexName()),
                    context.getTaskIndex());
        }
        return pairs;
    }

    @Override
    public final void handleEvents(List<Event> events) {
        // No events come to this input: its senders are known to the shuffle.
    }

    @Override
    public final List<Event> close() {
        if (pairs != null) {
            pairs.close();
        }
        return List.of();
    }
}
