package org.datampi.hive.dag;

import static java.util.Objects.requireNonNull;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.tez.runtime.api.events.InputInitializerEvent;

/**
 * The files through which dynamic partition pruning crosses ranks, in the DAG's directory (on the file system every
 * rank reads: HDFS on a cluster): each task's pruning events, written by the rank that ran it and read by rank 0
 * once the task's vertex has ended everywhere; and each deferred vertex with its tasks, written by rank 0 once it has
 * made its splits and read by the ranks that run them (and by the client, for the stage's summary). A file is
 * complete once it exists (written under another name, then renamed).
 */
public final class PruningFiles {
    private static final String EVENTS = "pruning-events";
    private static final String VERTICES = "pruned-vertices";

    private final Configuration conf;
    private final Path dagDir;

    public PruningFiles(Configuration conf, Path dagDir) {
        this.conf = requireNonNull(conf, "conf is null");
        this.dagDir = requireNonNull(dagDir, "dagDir is null");
    }

    /** Saves the pruning events task TASK of VERTEX sent; nothing when it sent none. */
    public void writeEvents(String vertex, int task, List<InputInitializerEvent> events) throws IOException {
        if (events.isEmpty()) {
            return;
        }
        write(new Path(new Path(dagDir, EVENTS), fileName(vertex) + "-" + task), out -> {
            out.writeInt(events.size());
            for (InputInitializerEvent event : events) {
                out.writeUTF(event.getTargetVertexName());
                out.writeUTF(event.getTargetInputName());
                ByteBuffer payload = event.getUserPayload().duplicate();
                out.writeInt(payload.remaining());
                byte[] bytes = new byte[payload.remaining()];
                payload.get(bytes);
                out.write(bytes);
            }
        });
    }

    /** The pruning events the TASKS tasks of VERTEX sent, each named after VERTEX. */
    public List<InputInitializerEvent> readEvents(String vertex, int tasks) throws IOException {
        List<InputInitializerEvent> events = new ArrayList<>();
        FileSystem fs = dagDir.getFileSystem(conf);
        for (int task = 0; task < tasks; task++) {
            Path file = new Path(new Path(dagDir, EVENTS), fileName(vertex) + "-" + task);
            if (!fs.exists(file)) {
                continue;
            }
            try (DataInputStream in = fs.open(file)) {
                int count = in.readInt();
                for (int i = 0; i < count; i++) {
                    String targetVertex = in.readUTF();
                    String targetInput = in.readUTF();
                    byte[] payload = new byte[in.readInt()];
                    in.readFully(payload);
                    InputInitializerEvent event = InputInitializerEvent.create(targetVertex, targetInput,
                            ByteBuffer.wrap(payload));
                    event.setSourceVertexName(vertex);
                    events.add(event);
                }
            }
        }
        return events;
    }

    /** Saves a deferred vertex with the tasks its splits gave it. */
    public void writeVertex(DagVertex made) throws IOException {
        write(new Path(new Path(dagDir, VERTICES), fileName(made.name())), made::write);
    }

    /** The deferred vertex NAME with its tasks, once rank 0 saved it. */
    public Optional<DagVertex> readVertex(String name) throws IOException {
        Path file = new Path(new Path(dagDir, VERTICES), fileName(name));
        FileSystem fs = file.getFileSystem(conf);
        if (!fs.exists(file)) {
            return Optional.empty();
        }
        try (DataInputStream in = fs.open(file)) {
            return Optional.of(DagVertex.read(in));
        }
    }

    /** Removes every file (a failed attempt's, before the next one). */
    public void clear() throws IOException {
        FileSystem fs = dagDir.getFileSystem(conf);
        fs.delete(new Path(dagDir, EVENTS), true);
        fs.delete(new Path(dagDir, VERTICES), true);
    }

    private interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    private void write(Path file, Writer writer) throws IOException {
        FileSystem fs = file.getFileSystem(conf);
        Path partial = file.suffix(".partial");
        try (DataOutputStream out = fs.create(partial, true)) {
            writer.write(out);
        }
        if (!fs.rename(partial, file)) {
            throw new IOException("Cannot rename " + partial + " to " + file);
        }
    }

    private static String fileName(String vertex) {
        return vertex.replace(' ', '-');
    }
}
