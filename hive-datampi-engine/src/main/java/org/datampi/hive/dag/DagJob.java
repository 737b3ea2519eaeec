package org.datampi.hive.dag;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A DAG as the ranks run it: its vertices, the first a root (map) vertex whose tasks are the job's O tasks, the
 * second, if there is one, a vertex fed by the first over a scatter-gather edge, whose tasks are its A tasks: the
 * edge is datampi's shuffle ({@link #SHUFFLE_OUTPUT} to {@link #SHUFFLE_INPUT}). The client writes it once into the
 * query's scratch directory; rank 0 reads it and broadcasts it to the others.
 */
public record DagJob(List<DagVertex> vertices) {
    /** The scatter-gather edge's output on the ranks: pairs sent to the A task of their partition. */
    public static final String SHUFFLE_OUTPUT = "org.datampi.hive.app.MpiShuffleOutput";
    /** The scatter-gather edge's input on the ranks: an A task's pairs, in key order, in groups. */
    public static final String SHUFFLE_INPUT = "org.datampi.hive.app.MpiShuffleInput";

    public DagJob {
        vertices = List.copyOf(vertices);
        if (vertices.isEmpty() || vertices.size() > 2) {
            throw new IllegalArgumentException("A DAG job has one or two vertices, not " + vertices.size());
        }
    }

    /** The root vertex: the O tasks. */
    public DagVertex oVertex() {
        return vertices.get(0);
    }

    /** The vertex behind the shuffle, if any: the A tasks. */
    public Optional<DagVertex> aVertex() {
        return vertices.size() > 1 ? Optional.of(vertices.get(1)) : Optional.empty();
    }

    public void write(OutputStream stream) throws IOException {
        DataOutputStream out = new DataOutputStream(stream);
        out.writeInt(vertices.size());
        for (DagVertex vertex : vertices) {
            vertex.write(out);
        }
        out.flush();
    }

    public static DagJob read(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        int count = in.readInt();
        List<DagVertex> vertices = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            vertices.add(DagVertex.read(in));
        }
        return new DagJob(vertices);
    }
}
