package org.datampi.hive.dag;

import static java.util.Objects.requireNonNull;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

import org.apache.tez.dag.api.records.DAGProtos.RootInputLeafOutputProto;

/**
 * What a root vertex's split generator is asked with ({@link VertexSplits}): the root input as the DAG plan holds it
 * (its name, its input's and its initializer's descriptors with Hive's payloads), the resources the splits are made
 * for, and the vertices whose events prune its partitions (dynamic partition pruning). Without event sources the
 * client makes the splits when it builds the DAG; with them rank 0 makes them while the DAG runs, once the sources
 * have run (a {@link DagVertex} then carries this request instead of tasks).
 *
 * @param root the root input from the DAG plan
 * @param ranks the ranks the vertex's tasks run on
 * @param taskMemoryMb each rank's heap
 * @param eventsPerSourceTask per source vertex of pruning events, how many each of its tasks sends to this input (one
 *     per pruned column); empty when nothing prunes the input
 * @param inputDirectories the input's directories (partitions) before pruning, for the summary
 */
public record SplitRequest(RootInputLeafOutputProto root, int ranks, int taskMemoryMb,
        Map<String, Integer> eventsPerSourceTask, int inputDirectories) {
    public SplitRequest {
        requireNonNull(root, "root is null");
        eventsPerSourceTask = Map.copyOf(eventsPerSourceTask);
        if (ranks < 1 || taskMemoryMb < 1 || inputDirectories < 0) {
            throw new IllegalArgumentException("Splits for " + ranks + " ranks of " + taskMemoryMb + " MB over "
                    + inputDirectories + " directories");
        }
        eventsPerSourceTask.forEach((source, events) -> {
            if (events < 1) {
                throw new IllegalArgumentException(source + " sends " + events + " events per task");
            }
        });
    }

    /** Whether other vertices' events prune the input: then its splits are made while the DAG runs. */
    public boolean pruned() {
        return !eventsPerSourceTask.isEmpty();
    }

    void write(DataOutputStream out) throws IOException {
        byte[] rootBytes = root.toByteArray();
        out.writeInt(rootBytes.length);
        out.write(rootBytes);
        out.writeInt(ranks);
        out.writeInt(taskMemoryMb);
        out.writeInt(eventsPerSourceTask.size());
        for (Map.Entry<String, Integer> source : new TreeMap<>(eventsPerSourceTask).entrySet()) {
            out.writeUTF(source.getKey());
            out.writeInt(source.getValue());
        }
        out.writeInt(inputDirectories);
    }

    static SplitRequest read(DataInputStream in) throws IOException {
        byte[] rootBytes = new byte[in.readInt()];
        in.readFully(rootBytes);
        RootInputLeafOutputProto root = RootInputLeafOutputProto.parseFrom(rootBytes);
        int ranks = in.readInt();
        int taskMemoryMb = in.readInt();
        int sources = in.readInt();
        Map<String, Integer> eventsPerSourceTask = new TreeMap<>();
        for (int i = 0; i < sources; i++) {
            eventsPerSourceTask.put(in.readUTF(), in.readInt());
        }
        return new SplitRequest(root, ranks, taskMemoryMb, eventsPerSourceTask, in.readInt());
    }
}
