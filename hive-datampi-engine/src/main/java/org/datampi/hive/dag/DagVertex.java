package org.datampi.hive.dag;

import static java.util.Objects.requireNonNull;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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
 * every task it runs from it. A vertex whose partitions other vertices' events prune (dynamic partition pruning) has
 * no tasks yet but the request for its splits, which rank 0 makes once those vertices have run ({@link #deferred},
 * {@link #withTasks}).
 *
 * @param template the spec of task 0 (attempt 0)
 * @param rootInput the root input (the table's alias) to which each task's split goes; empty for a vertex whose
 *     input is an edge
 * @param tasks one per task of the vertex, in task order; none while deferred
 * @param deferredSplits the request for the vertex's splits, made while the DAG runs; empty once they are made
 * @param bucketJoin whether the vertex is a bucket map join's big table: its tasks read splits grouped by bucket and
 *     the edge of each bucket's rows ({@link DagEdge.Routing#BUCKET}), so they are placed as a reduce vertex's are
 */
public record DagVertex(TaskSpec template, String rootInput, List<VertexTask> tasks,
        Optional<SplitRequest> deferredSplits, boolean bucketJoin) {
    public DagVertex {
        requireNonNull(template, "template is null");
        requireNonNull(rootInput, "rootInput is null");
        tasks = List.copyOf(tasks);
        requireNonNull(deferredSplits, "deferredSplits is null");
        if (deferredSplits.isPresent() && (rootInput.isEmpty() || !tasks.isEmpty())) {
            throw new IllegalArgumentException("Vertex " + template.getVertexName() + " defers its splits but has "
                    + (rootInput.isEmpty() ? "no root input" : tasks.size() + " tasks"));
        }
        if (bucketJoin && (rootInput.isEmpty() || deferredSplits.isPresent())) {
            throw new IllegalArgumentException("Vertex " + template.getVertexName() + " joins buckets but "
                    + (rootInput.isEmpty() ? "has no root input" : "defers its splits"));
        }
    }

    public DagVertex(TaskSpec template, String rootInput, List<VertexTask> tasks) {
        this(template, rootInput, tasks, Optional.empty(), false);
    }

    /** A vertex whose splits are made while the DAG runs (the request's pruning events come first). */
    public static DagVertex deferred(TaskSpec template, SplitRequest splits) {
        return new DagVertex(template, splits.root().getName(), List.of(), Optional.of(splits), false);
    }

    /** Whether the vertex's tasks are known only once its splits are made while the DAG runs. */
    public boolean deferred() {
        return deferredSplits.isPresent();
    }

    /** The vertices whose events prune this vertex's input, which run before it. */
    public Set<String> eventSources() {
        return deferredSplits.map(splits -> splits.eventsPerSourceTask().keySet()).orElse(Set.of());
    }

    /** This deferred vertex with its tasks, once its splits are made. */
    public DagVertex withTasks(List<VertexTask> madeTasks) {
        if (!deferred()) {
            throw new IllegalStateException("Vertex " + name() + " has its tasks already");
        }
        return new DagVertex(template, rootInput, madeTasks, Optional.empty(), false);
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
            split = requireNonNull(split, "split is null").clone();
            hosts = List.copyOf(hosts);
        }

        /** A copy: the task's split stays as it was made. */
        @Override
        public byte[] split() {
            return split.clone();
        }

        /** The split's bytes, compared by content (a record compares an array by identity). */
        @Override
        public boolean equals(Object other) {
            return other instanceof VertexTask task && Arrays.equals(split, task.split) && hosts.equals(task.hosts);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(split) + hosts.hashCode();
        }

        @Override
        public String toString() {
            return "VertexTask[split=" + split.length + " bytes, hosts=" + hosts + "]";
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
                return parts(new SerializationFactory(new Configuration())).stream()
                        .map(part -> part instanceof FileSplit file
                                ? file.getPath() + ":" + file.getStart() + "+" + file.getLength() : part.toString())
                        .collect(Collectors.joining(", "));
            } catch (IOException | RuntimeException e) {
                // Only a message loses detail.
                return "";
            }
        }

        /**
         * The splits this task reads, Tez's grouped split taken apart, read with SERIALIZATION (whose configuration
         * the splits get); none without a split.
         */
        public List<InputSplit> parts(SerializationFactory serialization) throws IOException {
            if (split.length == 0) {
                return List.of();
            }
            InputSplit read = MRInputHelpers.createOldFormatSplitFromUserPayload(MRSplitProto.parseFrom(split),
                    serialization);
            return read instanceof TezGroupedSplit grouped ? List.copyOf(grouped.getGroupedSplits()) : List.of(read);
        }
    }

    public String name() {
        return template.getVertexName();
    }

    /**
     * Whether rank 0 hands the vertex's tasks out to ranks that ask (a vertex that reads splits: its tasks take
     * uneven times and prefer hosts), rather than task t running on rank t mod size (a vertex fed by edges, whose
     * partitions must have a known rank: a reduce vertex, or a bucket map join's big table).
     */
    public boolean handedOut() {
        return !rootInput.isEmpty() && !bucketJoin;
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

    public void write(DataOutputStream out) throws IOException {
        template.write(out);
        out.writeUTF(rootInput);
        out.writeBoolean(deferredSplits.isPresent());
        if (deferredSplits.isPresent()) {
            deferredSplits.get().write(out);
        }
        out.writeBoolean(bucketJoin);
        out.writeInt(tasks.size());
        for (VertexTask task : tasks) {
            byte[] split = task.split();
            out.writeInt(split.length);
            out.write(split);
            out.writeInt(task.hosts().size());
            for (String host : task.hosts()) {
                out.writeUTF(host);
            }
        }
    }

    public static DagVertex read(DataInputStream in) throws IOException {
        TaskSpec template = new TaskSpec();
        template.readFields(in);
        String rootInput = in.readUTF();
        Optional<SplitRequest> deferredSplits = in.readBoolean() ? Optional.of(SplitRequest.read(in))
                : Optional.empty();
        boolean bucketJoin = in.readBoolean();
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
        return new DagVertex(template, rootInput, tasks, deferredSplits, bucketJoin);
    }
}
