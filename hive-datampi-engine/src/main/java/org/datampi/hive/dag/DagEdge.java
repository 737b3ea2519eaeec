package org.datampi.hive.dag;

import static java.util.Objects.requireNonNull;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

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
 *     {@link Routing#ONE_TO_ONE}, {@link Routing#BUCKET}), or one per rank ({@link Routing#BROADCAST})
 * @param bucketTasks on a {@link Routing#BUCKET} edge, per bucket of the destination's table the destination tasks
 *     that join it (Hive's routing table, from its CustomPartitionVertex); empty on any other edge
 */
public record DagEdge(String source, String input, String destination, Routing routing, int firstPartition,
        int partitions, List<List<Integer>> bucketTasks) {
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
        ONE_TO_ONE,
        /**
         * A bucket map join's edge (Hive's CustomPartitionEdge): the source's partitioner picks a pair's bucket of the
         * destination's table, and the pair goes to partition t of every destination task t that joins that bucket
         * ({@link #bucketTasks}; to none where no task does), read unordered.
         */
        BUCKET
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
        bucketTasks = requireNonNull(bucketTasks, "bucketTasks is null").stream().map(List::copyOf).toList();
        if ((routing == Routing.BUCKET) == bucketTasks.isEmpty()) {
            throw new IllegalArgumentException("Edge " + source + " -> " + destination + " (" + routing + ") has "
                    + bucketTasks.size() + " buckets");
        }
        for (List<Integer> tasks : bucketTasks) {
            if (tasks.stream().anyMatch(task -> task < 0 || task >= partitions)) {
                throw new IllegalArgumentException("Edge " + source + " -> " + destination + " routes a bucket to "
                        + tasks + " of " + partitions + " tasks");
            }
        }
    }

    /** An edge other than a bucket map join's. */
    public DagEdge(String source, String input, String destination, Routing routing, int firstPartition,
            int partitions) {
        this(source, input, destination, routing, firstPartition, partitions, List.of());
    }

    /** How many partitions a source task's partitioner picks from: the buckets of a bucket edge, else the edge's. */
    public int sourcePartitions() {
        return routing == Routing.BUCKET ? bucketTasks.size() : partitions;
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
        out.writeInt(bucketTasks.size());
        for (List<Integer> tasks : bucketTasks) {
            out.writeInt(tasks.size());
            for (int task : tasks) {
                out.writeInt(task);
            }
        }
    }

    static DagEdge read(DataInputStream in) throws IOException {
        String source = in.readUTF();
        String input = in.readUTF();
        String destination = in.readUTF();
        Routing routing = Routing.valueOf(in.readUTF());
        int firstPartition = in.readInt();
        int partitions = in.readInt();
        int buckets = in.readInt();
        List<List<Integer>> bucketTasks = new ArrayList<>(buckets);
        for (int bucket = 0; bucket < buckets; bucket++) {
            int count = in.readInt();
            List<Integer> tasks = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                tasks.add(in.readInt());
            }
            bucketTasks.add(tasks);
        }
        return new DagEdge(source, input, destination, routing, firstPartition, partitions, bucketTasks);
    }
}
