package org.datampi.hive.dag;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.tez.dag.api.ProcessorDescriptor;
import org.apache.tez.dag.api.records.DAGProtos.RootInputLeafOutputProto;
import org.apache.tez.dag.api.records.DAGProtos.TezEntityDescriptorProto;
import org.apache.tez.dag.records.TezDAGID;
import org.apache.tez.dag.records.TezTaskAttemptID;
import org.apache.tez.dag.records.TezTaskID;
import org.apache.tez.dag.records.TezVertexID;
import org.apache.tez.runtime.api.impl.TaskSpec;

/** Vertices for tests of what reads a DAG: a task spec with the vertex's name and task count, no inputs or outputs. */
public final class TestDags {
    private TestDags() {
    }

    /**
     * @param id the vertex's id in its DAG
     * @param rootInput the table its tasks read ("" for a vertex fed by edges only)
     */
    public static DagVertex vertex(String name, int id, String rootInput, int tasks) {
        TezVertexID vertex = TezVertexID.getInstance(TezDAGID.getInstance(ApplicationId.newInstance(7, 3), 1), id);
        TaskSpec template = new TaskSpec(TezTaskAttemptID.getInstance(TezTaskID.getInstance(vertex, 0), 0), "dag",
                name, tasks, ProcessorDescriptor.create("Processor"), new ArrayList<>(), new ArrayList<>(), null,
                new Configuration(false));
        return new DagVertex(template, rootInput, Collections.nCopies(tasks,
                new DagVertex.VertexTask(new byte[0], List.of())));
    }

    /** A scan of ROOT_INPUT whose splits wait for dynamic partition pruning by the events of SOURCE (one column). */
    public static DagVertex deferred(String name, int id, String rootInput, String source) {
        RootInputLeafOutputProto root = RootInputLeafOutputProto.newBuilder().setName(rootInput)
                .setIODescriptor(TezEntityDescriptorProto.newBuilder().setClassName("MRInputLegacy"))
                .setControllerDescriptor(TezEntityDescriptorProto.newBuilder()
                        .setClassName("org.apache.hadoop.hive.ql.exec.tez.HiveSplitGenerator"))
                .build();
        return DagVertex.deferred(vertex(name, id, "", 0).template(),
                new SplitRequest(root, 2, 768, Map.of(source, 1), 1_823));
    }
}
