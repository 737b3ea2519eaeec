package org.datampi.hive.dag;

import static java.util.Objects.requireNonNull;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A DAG as the ranks run it: its vertices in an order where every vertex comes after the vertices it reads from and
 * those whose events prune its input (vertex i is the job's stage i), and its edges, each a stream of datampi's shuffle from the source's tasks to
 * partitions of the destination's ({@link DagEdge}). The edges' Tez classes are datampi's ({@link #SHUFFLE_OUTPUT},
 * {@link #GROUPED_INPUT}, {@link #UNORDERED_INPUT}). The client writes it once into the query's scratch directory; rank
 * 0 reads it and broadcasts it to the others.
 *
 * @param queryId the Hive query the DAG runs (hive.query.id), which every rank's log names
 * @param classPath the URIs of the session's added jars (ADD JAR), copied beside the DAG, which the tasks load from
 * @param concurrentVertices whether a rank runs a task of any vertex that is ready when the next in the DAG's order is
 *     not (vertices side by side), rather than going through them in order
 */
public record DagJob(String queryId, List<DagVertex> vertices, List<DagEdge> edges, List<String> classPath,
        boolean concurrentVertices) {
    /** Every edge's output on the ranks: pairs sent to the partitions of the edge. */
    public static final String SHUFFLE_OUTPUT = "org.datampi.hive.app.MpiShuffleOutput";
    /** A sorted edge's input: a task's pairs in key order, in groups of equal keys. */
    public static final String GROUPED_INPUT = "org.datampi.hive.app.MpiShuffleInput";
    /** An unsorted or broadcast edge's input: a task's pairs one by one. */
    public static final String UNORDERED_INPUT = "org.datampi.hive.app.MpiUnorderedInput";

    public DagJob {
        requireNonNull(queryId, "queryId is null");
        vertices = List.copyOf(vertices);
        edges = List.copyOf(edges);
        classPath = List.copyOf(classPath);
        if (vertices.isEmpty()) {
            throw new IllegalArgumentException("A DAG job has at least one vertex");
        }
        Set<String> before = new HashSet<>();
        for (DagVertex vertex : vertices) {
            String name = vertex.name();
            if (before.contains(name)) {
                throw new IllegalArgumentException("Vertex " + name + " comes twice");
            }
            for (DagEdge edge : edges) {
                if (edge.destination().equals(name) && !before.contains(edge.source())) {
                    throw new IllegalArgumentException("Vertex " + name + " reads from " + edge.source()
                            + ", which does not come before it");
                }
            }
            for (String source : vertex.eventSources()) {
                if (!before.contains(source)) {
                    throw new IllegalArgumentException("Vertex " + name + " is pruned by events of " + source
                            + ", which does not come before it");
                }
            }
            before.add(name);
        }
        for (DagEdge edge : edges) {
            if (!before.contains(edge.destination())) {
                throw new IllegalArgumentException("The edge " + edge.source() + " -> " + edge.destination()
                        + " leads to no vertex of the DAG");
            }
        }
    }

    /** A DAG whose vertices run side by side. */
    public DagJob(String queryId, List<DagVertex> vertices, List<DagEdge> edges, List<String> classPath) {
        this(queryId, vertices, edges, classPath, true);
    }

    /** The stage of the named vertex. */
    public int stageOf(String vertex) {
        for (int stage = 0; stage < vertices.size(); stage++) {
            if (vertices.get(stage).name().equals(vertex)) {
                return stage;
            }
        }
        throw new IllegalArgumentException("No vertex " + vertex + " in DAG " + vertices.get(0).template().getDAGName());
    }

    /** The edges into the named vertex. */
    public List<DagEdge> inputsOf(String vertex) {
        return edges.stream().filter(edge -> edge.destination().equals(vertex)).toList();
    }

    /** The edge the destination reads as INPUT (a source vertex's name, or a union's: its first member's edge). */
    public DagEdge edgeInto(String destination, String input) {
        return edges.stream().filter(edge -> edge.input().equals(input) && edge.destination().equals(destination))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("No input " + input + " of "
                        + destination + " in DAG " + vertices.get(0).template().getDAGName()));
    }

    /** The edge from source to destination. */
    public DagEdge edge(String source, String destination) {
        return edges.stream().filter(edge -> edge.source().equals(source) && edge.destination().equals(destination))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("No edge " + source + " -> "
                        + destination + " in DAG " + vertices.get(0).template().getDAGName()));
    }

    /** This DAG with a deferred vertex replaced by the same vertex with its tasks ({@link DagVertex#withTasks}). */
    public DagJob withMadeSplits(DagVertex made) {
        int stage = stageOf(made.name());
        if (!vertices.get(stage).deferred() || made.deferred()) {
            throw new IllegalArgumentException("Vertex " + made.name() + " is not a deferred vertex with its tasks");
        }
        List<DagVertex> replaced = new ArrayList<>(vertices);
        replaced.set(stage, made);
        return new DagJob(queryId, replaced, edges, classPath, concurrentVertices);
    }

    /** Tasks handed out by rank 0 (those of vertices that read splits) and the others, for the console. */
    public int handedOutTasks() {
        return vertices.stream().filter(DagVertex::handedOut).mapToInt(vertex -> vertex.tasks().size()).sum();
    }

    public int placedTasks() {
        return vertices.stream().filter(vertex -> !vertex.handedOut()).mapToInt(vertex -> vertex.tasks().size())
                .sum();
    }

    public void write(OutputStream stream) throws IOException {
        DataOutputStream out = new DataOutputStream(stream);
        out.writeUTF(queryId);
        out.writeInt(vertices.size());
        for (DagVertex vertex : vertices) {
            vertex.write(out);
        }
        out.writeInt(edges.size());
        for (DagEdge edge : edges) {
            edge.write(out);
        }
        out.writeInt(classPath.size());
        for (String jar : classPath) {
            out.writeUTF(jar);
        }
        out.writeBoolean(concurrentVertices);
        out.flush();
    }

    public static DagJob read(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        String queryId = in.readUTF();
        int count = in.readInt();
        List<DagVertex> vertices = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            vertices.add(DagVertex.read(in));
        }
        int edgeCount = in.readInt();
        List<DagEdge> edges = new ArrayList<>(edgeCount);
        for (int i = 0; i < edgeCount; i++) {
            edges.add(DagEdge.read(in));
        }
        int jarCount = in.readInt();
        List<String> classPath = new ArrayList<>(jarCount);
        for (int i = 0; i < jarCount; i++) {
            classPath.add(in.readUTF());
        }
        return new DagJob(queryId, vertices, edges, classPath, in.readBoolean());
    }
}
