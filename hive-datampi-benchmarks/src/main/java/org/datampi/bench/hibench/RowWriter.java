package org.datampi.bench.hibench;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.orc.OrcFile;
import org.apache.orc.Writer;

/**
 * Writes one file of a table's rows (String, Integer and Double fields) in one of HiBench's formats. The file gets
 * its final name only when it is complete: until then it is hidden (a leading dot), so Hive never reads half a file.
 */
abstract class RowWriter implements Closeable {
    private final Path partial;
    private final Path target;

    private RowWriter(Path target) {
        this.target = target;
        this.partial = target.resolveSibling("." + target.getFileName() + ".partial");
    }

    static RowWriter open(HiBenchFormat format, HiBenchTable table, Path target) throws IOException {
        return switch (format) {
            case TEXT -> new TextRows(target);
            case SEQUENCEFILE -> new SequenceFileRows(target);
            case ORC -> new OrcRows(table, target);
        };
    }

    abstract void write(Object[] row) throws IOException;

    /** Finishes the partial file; then gives it its name. */
    abstract void finish() throws IOException;

    Path partial() {
        return partial;
    }

    @Override
    public final void close() throws IOException {
        finish();
        FileSystem local = FileSystem.getLocal(new Configuration());
        // Through Hadoop's local file system, so that a checksum file moves with its file.
        local.delete(new org.apache.hadoop.fs.Path(target.toUri()), false);
        if (!local.rename(new org.apache.hadoop.fs.Path(partial.toUri()), new org.apache.hadoop.fs.Path(target.toUri()))) {
            throw new IOException("Cannot rename " + partial + " to " + target);
        }
    }

    static String csv(Object[] row) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < row.length; i++) {
            if (i > 0) {
                line.append(',');
            }
            line.append(row[i]);
        }
        return line.toString();
    }

    private static final class TextRows extends RowWriter {
        private final BufferedWriter out;

        TextRows(Path target) throws IOException {
            super(target);
            out = Files.newBufferedWriter(partial(), StandardCharsets.UTF_8);
        }

        @Override
        void write(Object[] row) throws IOException {
            out.write(csv(row));
            out.write('\n');
        }

        @Override
        void finish() throws IOException {
            out.close();
        }
    }

    private static final class SequenceFileRows extends RowWriter {
        private final SequenceFile.Writer out;
        private final LongWritable key = new LongWritable();
        private final Text value = new Text();

        SequenceFileRows(Path target) throws IOException {
            super(target);
            out = SequenceFile.createWriter(new Configuration(),
                    SequenceFile.Writer.file(new org.apache.hadoop.fs.Path(partial().toUri())),
                    SequenceFile.Writer.keyClass(LongWritable.class), SequenceFile.Writer.valueClass(Text.class),
                    SequenceFile.Writer.compression(SequenceFile.CompressionType.NONE));
        }

        @Override
        void write(Object[] row) throws IOException {
            key.set(key.get() + 1);
            value.set(csv(row));
            out.append(key, value);
        }

        @Override
        void finish() throws IOException {
            out.close();
        }
    }

    private static final class OrcRows extends RowWriter {
        private final Writer out;
        private final VectorizedRowBatch batch;

        OrcRows(HiBenchTable table, Path target) throws IOException {
            super(target);
            out = OrcFile.createWriter(new org.apache.hadoop.fs.Path(partial().toUri()),
                    OrcFile.writerOptions(new Configuration()).setSchema(table.orcSchema()));
            batch = table.orcSchema().createRowBatch();
        }

        @Override
        void write(Object[] row) throws IOException {
            int r = batch.size++;
            for (int c = 0; c < row.length; c++) {
                Object field = row[c];
                if (field instanceof String text) {
                    ((BytesColumnVector) batch.cols[c]).setVal(r, text.getBytes(StandardCharsets.UTF_8));
                } else if (field instanceof Integer number) {
                    ((LongColumnVector) batch.cols[c]).vector[r] = number;
                } else {
                    ((DoubleColumnVector) batch.cols[c]).vector[r] = (Double) field;
                }
            }
            if (batch.size == batch.getMaxSize()) {
                out.addRowBatch(batch);
                batch.reset();
            }
        }

        @Override
        void finish() throws IOException {
            if (batch.size > 0) {
                out.addRowBatch(batch);
            }
            out.close();
        }
    }
}
