package org.datampi.hive.dag;

import static java.util.Objects.requireNonNull;

import java.util.Map;

import org.apache.tez.runtime.api.ObjectRegistry;
import org.datampi.mpid.PairReceiver;
import org.datampi.mpid.PairSender;
import org.datampi.mpid.StageRuntime;

/**
 * The running DAG's edges in a rank, as its Tez inputs and outputs reach them: each edge's partitions on the job's
 * shuffle ({@link StageRuntime}). Tez creates inputs and outputs by reflection from their class names, so they find
 * this through the task's object registry ({@link #of}), where {@link VertexTaskRunner} puts it for the DAG.
 */
public final class DagEdges {
    static final String REGISTRY_KEY = DagEdges.class.getName();

    private final DagJob dag;
    private final StageRuntime stages;
    private final Map<String, String> pairTypes;

    /** @param pairTypes the shuffle's pair types and key order (MPI_D's settings), the same for every edge */
    public DagEdges(DagJob dag, StageRuntime stages, Map<String, String> pairTypes) {
        this.dag = requireNonNull(dag, "dag is null");
        this.stages = requireNonNull(stages, "stages is null");
        this.pairTypes = Map.copyOf(pairTypes);
        for (DagEdge edge : dag.edges()) {
            if (edge.routing() == DagEdge.Routing.BROADCAST && edge.partitions() != stages.size()) {
                throw new IllegalStateException("The broadcast edge " + edge.source() + " -> " + edge.destination()
                        + " was planned for " + edge.partitions() + " ranks, but the job runs on " + stages.size());
            }
        }
    }

    /** The edges of the DAG whose task this registry serves. */
    public static DagEdges of(ObjectRegistry registry) {
        Object edges = registry.get(REGISTRY_KEY);
        if (edges == null) {
            throw new IllegalStateException("No datampi DAG is running in this process: datampi's edges run only "
                    + "in a DAG's tasks on the ranks");
        }
        return (DagEdges) edges;
    }

    /** The edge a source task sends on to a destination. */
    public DagEdge edge(String source, String destination) {
        return dag.edge(source, destination);
    }

    /** The edge a destination task reads as INPUT (its source's name, or its union's). */
    public DagEdge edgeInto(String destination, String input) {
        return dag.edgeInto(destination, input);
    }

    /** A sender of the source task's pairs to the edge's partitions (0 to partitions - 1 of the edge). */
    public PairSender sender(DagEdge edge) {
        return stages.sender(pairTypes, edge.firstPartition(), edge.partitions(),
                partition -> edge.rankOf(partition, stages.size()));
    }

    /**
     * What destination task TASK reads of the edge, in key order: its own partition, or for a broadcast edge the copy
     * this rank received.
     */
    public PairReceiver receiver(DagEdge edge, int task) {
        int partition = edge.routing() == DagEdge.Routing.BROADCAST ? stages.rank() : task;
        if (edge.rankOf(partition, stages.size()) != stages.rank()) {
            throw new IllegalStateException("Task " + task + " of " + edge.destination() + " runs on rank "
                    + stages.rank() + ", which does not receive partition " + partition + " of the edge from "
                    + edge.source());
        }
        return stages.receiver(pairTypes, edge.firstPartition() + partition);
    }

    /**
     * Frees what task TASK of the vertex read of its inputs here, its own partition of each, once it has run: the
     * vertex's other tasks read others. (A broadcast copy serves all of them: it goes with {@link #releaseInputsOf}.)
     * Without this, a reduce vertex's partitions would hold their memory until its last task here, unspillable while
     * marked as read.
     */
    public void releaseTaskInputs(String vertex, int task) {
        for (DagEdge edge : dag.inputsOf(vertex)) {
            if (edge.routing() != DagEdge.Routing.BROADCAST) {
                stages.release(edge.firstPartition() + task);
            }
        }
    }

    /** Frees what this rank received for the vertex's inputs: its tasks here have run. */
    public void releaseInputsOf(String vertex) {
        // A union's edges share their partitions; releasing one twice frees nothing more.
        for (DagEdge edge : dag.inputsOf(vertex)) {
            for (int partition = stages.rank(); partition < edge.partitions(); partition += stages.size()) {
                stages.release(edge.firstPartition() + partition);
            }
        }
    }
}
