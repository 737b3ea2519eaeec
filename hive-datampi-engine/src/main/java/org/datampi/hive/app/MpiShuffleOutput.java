package org.datampi.hive.app;

import java.io.IOException;
import java.util.List;

import org.apache.tez.runtime.api.AbstractLogicalOutput;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.OutputContext;
import org.apache.tez.runtime.library.api.KeyValueWriter;
import org.datampi.mpid.MPI_D;
import org.datampi.mpid.MPI_D_Exception;

/**
 * A scatter-gather edge's output in a rank (DAG mode), in place of Tez's OrderedPartitionedKVOutput: every pair
 * Hive's ReduceSinkOperator writes (a HiveKey whose hash picks the partition, a BytesWritable) goes to
 * {@code MPI_D.Send}, which partitions it by the edge's partitioner ({@link HivePartitioner}), sorts and sends it to
 * the A task of its partition while the O task still runs. Nothing is written to disk but the shuffle's spills.
 */
public final class MpiShuffleOutput extends AbstractLogicalOutput {
    public MpiShuffleOutput(OutputContext context, int physicalOutputs) {
        super(context, physicalOutputs);
    }

    @Override
    public List<Event> initialize() {
        HiveShuffle.requestNoMemory(getContext());
        return List.of();
    }

    @Override
    public void start() {
        // Sending needs no start: MPI_D.Send runs in the writer.
    }

    @Override
    public KeyValueWriter getWriter() {
        return new KeyValueWriter() {
            @Override
            public void write(Object key, Object value) throws IOException {
                try {
                    MPI_D.Send(key, value);
                } catch (MPI_D_Exception e) {
                    throw new IOException("Cannot send a pair to the A tasks of " + getContext().getDestinationVertexName(),
                            e);
                }
            }
        };
    }

    @Override
    public void handleEvents(List<Event> events) {
        // No events come to this output: its receivers are known to MPI_D.
    }

    @Override
    public List<Event> close() {
        // The O task's end flushes its sends (the runtime's), not the output.
        return List.of();
    }
}
