package org.datampi.hive.dag;

import static java.util.Objects.requireNonNull;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * An edge of a DAG as the ranks run it: pairs of the source vertex's tasks go to partitions of the destination's,
 * numbered within the job from {@code firstPartition}.
 *
 * @param source the producing vertex
 * @param input the name under which the destination reads the edge: the source's, or its union's when the source is
 *     one of a union's vertices (all of which then send to the same partitions)
 * @param destination the consuming vertex
 * @param routing how pairs are routed and read
 * @param firstPartition the job-wide number of the edge's partition 0
 * @param partitions one per destination task ({@link Routing#SORTED}, {@link Routing#UNSORTED},
 *     {@link Routing#ONE_TO_ONE}), or one per rank ({@link Routing#BROADCAST})
 */
public record DagEdge(String source, String input, String destination, Routing routing, int firstPartition,
        int partitions) {
    /** How an edge routes its pairs, from Tez's data movement and the destination's input. */
    public enum Routing {
        /** Scatter-gather into a grouped, sorted input (Tez's OrderedGroupedKVInput): partition p is task p's. */
        SORTED,
        /** Scatter-gather into an unordered input (Tez's UnorderedKVInput): partition p is task p's. */
        UNSORTED,
        /** Every pair to every rank (map-join tables, semijoin filters): partition r is rank r's. */
        BROADCAST,
        /**
         * Every pair of source task t to partition t, destination task t's, read unordered (Tez's one-to-one edge:
         * as many destination tasks as source tasks; Hive's forwarding reduce sinks into dynamically partitioned
         * hash joins).
         */
        ONE_TO_ONE
    }

    public DagEdge {
        requireNonNull(source, "source is null");
        requireNonNull(input, "input is null");
        requireNonNull(destination, "destination is null");
        requireNonNull(routing, "routing is null");
        if (firstPartition < 0 || partitions < 1) {
            throw new IllegalArgumentException("Edge " + source + " -> " + destination + " has partitions "
                    + firstPartition + "+" + partitions);
        }
    }

    /**
     * The rank that receives partition p: a destination task runs on rank task mod size, so that its data can flow
     * to it before it starts; a broadcast partition is its rank's.
     */
    public int rankOf(int partition, int ranks) {
        return partition % ranks;
    }

    void write(DataOutputStream out) throws IOException {
        out.writeUTF(source);
        out.writeUTF(input);
        out.writeUTF(destination);
        out.writeUTF(routing.name());
        out.writeInt(firstPartition);
        out.writeInt(partitions);
    }

    static DagEdge read(DataInputStream in) throws IOException {
        return new DagEdge(in.readUTF(), in.readUTF(), in.readUTF(), Routing.valueOf(in.readUTF()), in.readInt(),
                in.readInt());
    }
}
