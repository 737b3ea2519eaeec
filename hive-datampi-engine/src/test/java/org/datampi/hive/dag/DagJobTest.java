package org.datampi.hive.dag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.tez.dag.api.InputDescriptor;
import org.apache.tez.dag.api.OutputDescriptor;
import org.apache.tez.dag.api.ProcessorDescriptor;
import org.apache.tez.dag.records.TezDAGID;
import org.apache.tez.dag.records.TezTaskAttemptID;
import org.apache.tez.dag.records.TezTaskID;
import org.apache.tez.dag.records.TezVertexID;
import org.apache.tez.runtime.api.impl.InputSpec;
import org.apache.tez.runtime.api.impl.OutputSpec;
import org.apache.tez.runtime.api.impl.TaskSpec;
import org.datampi.hive.app.MpiShuffleInput;
import org.datampi.hive.app.MpiShuffleOutput;
import org.junit.jupiter.api.Test;

class DagJobTest {
    @Test
    void theShuffleClassNamesNameTheShuffleClasses() {
        assertEquals(MpiShuffleOutput.class.getName(), DagJob.SHUFFLE_OUTPUT);
        assertEquals(MpiShuffleInput.class.getName(), DagJob.SHUFFLE_INPUT);
    }

    @Test
    void aJobSurvivesItsTripToTheRanksAndEachTaskGetsItsOwnSpec() throws Exception {
        TezVertexID vertex = TezVertexID.getInstance(TezDAGID.getInstance(ApplicationId.newInstance(7, 3), 1), 0);
        TaskSpec template = new TaskSpec(TezTaskAttemptID.getInstance(TezTaskID.getInstance(vertex, 0), 0), "dag",
                "Map 1", 2, ProcessorDescriptor.create("Processor"),
                new ArrayList<>(List.of(new InputSpec("sales", InputDescriptor.create("Input"), 1))),
                new ArrayList<>(List.of(new OutputSpec("Reducer 2", OutputDescriptor.create(DagJob.SHUFFLE_OUTPUT),
                        3))), null, new Configuration(false));
        DagJob job = new DagJob(List.of(new DagVertex(template, "sales", List.of(
                new DagVertex.VertexTask(new byte[] {1, 2}, List.of("dmp1")),
                new DagVertex.VertexTask(new byte[] {3}, List.of())))));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        job.write(bytes);
        DagJob read = DagJob.read(new ByteArrayInputStream(bytes.toByteArray()));

        DagVertex map = read.oVertex();
        assertTrue(read.aVertex().isEmpty());
        assertEquals("sales", map.rootInput());
        assertEquals(List.of("dmp1"), map.tasks().get(0).hosts());
        assertEquals(3, map.tasks().get(1).split()[0]);
        TaskSpec first = map.taskSpec(0);
        TaskSpec second = map.taskSpec(1);
        assertEquals(1, second.getTaskAttemptID().getTaskID().getId());
        assertEquals(2, second.getVertexParallelism());
        // Tez's runtime empties a task's spec lists when the task ends: the next task of the vertex keeps its own.
        first.getInputs().clear();
        first.getOutputs().clear();
        assertEquals("Input", second.getInputs().get(0).getInputDescriptor().getClassName());
        assertEquals(3, second.getOutputs().get(0).getPhysicalEdgeCount());
    }
}
