package org.datampi.hive.dag;

import static java.util.Objects.requireNonNull;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapred.FileSplit;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.split.TezGroupedSplit;
import org.apache.tez.dag.records.TezTaskAttemptID;
import org.apache.tez.dag.records.TezTaskID;
import org.apache.tez.mapreduce.hadoop.MRInputHelpers;
import org.apache.tez.mapreduce.protos.MRRuntimeProtos.MRSplitProto;
import org.apache.tez.runtime.api.impl.TaskSpec;

/**
 * One vertex of a DAG as the ranks get it (in a {@link DagJob}): Tez's spec of its first task (the processor, input and
 * output descriptors with Hive's payloads, the vertex's configuration), the name of its root input if it has one,
 * and per task the split Hive's split generator made and the hosts that hold its data. Each rank builds the spec of
 * every task it runs from it.
 *
 * @param template the spec of task 0 (attempt 0)
 * @param rootInput the root input (the table's alias) to which each task's split goes; empty for a vertex whose
 *     input is an edge
 * @param tasks one per task of the vertex, in task order
 */
public record DagVertex(TaskSpec template, String rootInput, List<VertexTask> tasks) {
    public DagVertex {
        requireNonNull(template, "template is null");
        requireNonNull(rootInput, "rootInput is null");
        tasks = List.copyOf(tasks);
    }

    /**
     * One task's input.
     *
     * @param split Hive's serialized split (an MRSplitProto), as Tez's split event carries it; empty without a root
     *     input
     * @param hosts where the split's data is
     */
    public record VertexTask(byte[] split, List<String> hosts) {
        public VertexTask {
            requireNonNull(split, "split is null");
            hosts = List.copyOf(hosts);
        }

        /**
         * What the split reads, for an error message: each file's path and byte range ({@code path:start+length}),
         * Tez's grouped splits taken apart; empty without a split or when it cannot be read here.
         */
        public String files() {
            if (split.length == 0) {
                return "";
            }
            try {
                InputSplit read = MRInputHelpers.createOldFormatSplitFromUserPayload(MRSplitProto.parseFrom(split),
                        new SerializationFactory(new Configuration()));
                List<InputSplit> parts = read instanceof TezGroupedSplit grouped ? grouped.getGroupedSplits()
                        : List.of(read);
                return parts.stream().map(part -> part instanceof FileSplit file
                        ? file.getPath() + ":" + file.getStart() + "+" + file.getLength() : part.toString())
                        .collect(Collectors.joining(", "));
            } catch (IOException | RuntimeException e) {
                // Only a message loses detail.
                return "";
            }
        }
    }

    public String name() {
        return template.getVertexName();
    }

    /**
     * Whether rank 0 hands the vertex's tasks out to ranks that ask (a vertex that reads splits: its tasks take
     * uneven times and prefer hosts), rather than task t running on rank t mod size (a vertex fed by edges only,
     * whose partitions must have a known rank).
     */
    public boolean handedOut() {
        return !rootInput.isEmpty();
    }

    /** The spec of task TASK, attempt 0. */
    public TaskSpec taskSpec(int task) {
        TezTaskAttemptID first = template.getTaskAttemptID();
        TezTaskAttemptID attempt = TezTaskAttemptID.getInstance(
                TezTaskID.getInstance(first.getTaskID().getVertexID(), task), 0);
        // Copies of the lists: Tez's runtime empties a task's spec lists when the task ends (to free them), and a
        // rank runs several tasks of a vertex.
        return new TaskSpec(attempt, template.getDAGName(), template.getVertexName(), tasks.size(),
                template.getProcessorDescriptor(), new ArrayList<>(template.getInputs()),
                new ArrayList<>(template.getOutputs()),
                template.getGroupInputs() == null ? null : new ArrayList<>(template.getGroupInputs()),
                template.getTaskConf());
    }

    void write(DataOutputStream out) throws IOException {
        template.write(out);
        out.writeUTF(rootInput);
        out.writeInt(tasks.size());
        for (VertexTask task : tasks) {
            out.writeInt(task.split().length);
            out.write(task.split());
            out.writeInt(task.hosts().size());
            for (String host : task.hosts()) {
                out.writeUTF(host);
            }
        }
    }

    static DagVertex read(DataInputStream in) throws IOException {
        TaskSpec template = new TaskSpec();
        template.readFields(in);
        String rootInput = in.readUTF();
        int count = in.readInt();
        List<VertexTask> tasks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] split = new byte[in.readInt()];
            in.readFully(split);
            int hostCount = in.readInt();
            List<String> hosts = new ArrayList<>(hostCount);
            for (int h = 0; h < hostCount; h++) {
                hosts.add(in.readUTF());
            }
            tasks.add(new VertexTask(split, hosts));
        }
        return new DagVertex(template, rootInput, tasks);
    }
}
