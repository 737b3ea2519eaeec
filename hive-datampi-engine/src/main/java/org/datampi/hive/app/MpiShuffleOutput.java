package org.datampi.hive.app;

import java.io.IOException;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.tez.common.TezRuntimeFrameworkConfigs;
import org.apache.tez.common.TezUtils;
import org.apache.tez.runtime.api.AbstractLogicalOutput;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.OutputContext;
import org.apache.tez.runtime.library.api.KeyValueWriter;
import org.apache.tez.runtime.library.api.Partitioner;
import org.apache.tez.runtime.library.common.TezRuntimeUtils;
import org.datampi.hive.dag.DagEdge;
import org.datampi.hive.dag.DagEdges;
import org.datampi.mpid.PairSender;

/**
 * An edge's output in a rank (DAG mode), in place of Tez's OrderedPartitionedKVOutput, UnorderedPartitionedKVOutput
 * and UnorderedKVOutput: every pair Hive's operators write (a HiveKey and a BytesWritable) goes into datampi's
 * shuffle while the task runs, to the partition the edge's own partitioner picks (Tez's, from Hive's payload, as
 * Tez's outputs create it), on a one-to-one edge to the destination task of its own index, on a bucket map join's
 * edge to every destination task that joins the bucket its partitioner picks, or, on a broadcast edge, to every rank.
 * Nothing is written to disk but the shuffle's spills.
 */
public final class MpiShuffleOutput extends AbstractLogicalOutput {
    private DagEdge edge;
    private PairSender sender;
    private Partitioner partitioner;
    /** On a one-to-one edge, the partition of the destination task this task feeds (its own index); else -1. */
    private int ownPartition = -1;
    private long records;

    public MpiShuffleOutput(OutputContext context, int physicalOutputs) {
        super(context, physicalOutputs);
    }

    @Override
    public List<Event> initialize() throws IOException {
        HiveShuffle.requestNoMemory(getContext());
        DagEdges edges = DagEdges.of(getContext().getObjectRegistry());
        edge = edges.edge(getContext().getTaskVertexName(), getContext().getDestinationVertexName());
        if (edge.routing() == DagEdge.Routing.ONE_TO_ONE) {
            ownPartition = getContext().getTaskIndex();
            if (ownPartition >= edge.partitions()) {
                throw new IllegalStateException("Task " + ownPartition + " of " + edge.source() + " has no task of "
                        + edge.destination() + " to send to over their one-to-one edge (" + edge.partitions()
                        + " tasks)");
            }
        } else if (edge.routing() != DagEdge.Routing.BROADCAST) {
            Configuration conf = TezUtils.createConfFromUserPayload(getContext().getUserPayload());
            conf.setInt(TezRuntimeFrameworkConfigs.TEZ_RUNTIME_NUM_EXPECTED_PARTITIONS, edge.sourcePartitions());
            partitioner = TezRuntimeUtils.instantiatePartitioner(conf);
        }
        sender = edges.sender(edge);
        return List.of();
    }

    @Override
    public void start() {
        // Sending needs no start: the writer sends.
    }

    @Override
    public KeyValueWriter getWriter() {
        return new KeyValueWriter() {
            @Override
            public void write(Object key, Object value) {
                records++;
                if (ownPartition >= 0) {
                    sender.send(ownPartition, key, value);
                } else if (partitioner == null) {
                    for (int rank = 0; rank < edge.partitions(); rank++) {
                        sender.send(rank, key, value);
                    }
                } else if (edge.routing() == DagEdge.Routing.BUCKET) {
                    // As Tez's CustomPartitionEdge routes the bucket's output: to each task of the bucket, or none.
                    for (int task : edge.bucketTasks().get(partitioner.getPartition(key, value,
                            edge.sourcePartitions()))) {
                        sender.send(task, key, value);
                    }
                } else {
                    sender.send(partitioner.getPartition(key, value, edge.partitions()), key, value);
                }
            }
        };
    }

    @Override
    public void handleEvents(List<Event> events) {
        // No events come to this output: its receivers are known to the shuffle.
    }

    @Override
    public List<Event> close() {
        if (sender != null) {
            sender.flush();
            // For the stage's summary: what this task sent to the edge's destination (DagCounters).
            getContext().getCounters().findCounter(DagCounters.EDGE_RECORDS, edge.destination()).increment(records);
            getContext().getCounters().findCounter(DagCounters.EDGE_BYTES, edge.destination())
                    .increment(sender.bytes());
        }
        return List.of();
    }
}
