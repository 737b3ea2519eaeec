package org.datampi.examples;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.datampi.mpid.MPI_D;
import org.datampi.mpid.MPI_D_Exception;
import org.datampi.mpid.MpidConf;

/**
 * Word count on MPI_D with Writable keys and values and a combiner. Each O task counts generated words
 * ({@link GeneratedWords}); each A task writes {@code OUTDIR/part-A} with "word TAB count" lines in key order.
 *
 * <p>Arguments: {@code OUTDIR WORDS_PER_O_TASK VOCABULARY SEED [skewed]}.
 */
public final class WordCount {
    private WordCount() {
    }

    public static void main(String[] args) throws MPI_D_Exception, IOException {
        if (args.length < 4) {
            throw new IllegalArgumentException("Usage: WordCount OUTDIR WORDS_PER_O_TASK VOCABULARY SEED [skewed]");
        }
        Path out = Path.of(args[0]);
        long words = Long.parseLong(args[1]);
        int vocabulary = Integer.parseInt(args[2]);
        long seed = Long.parseLong(args[3]);
        boolean skewed = args.length > 4 && args[4].equals("skewed");

        MPI_D.Init(args, MPI_D.Mode.Common, Map.of(
                MpidConf.KEY_CLASS, Text.class.getName(),
                MpidConf.VALUE_CLASS, IntWritable.class.getName(),
                MpidConf.COMBINER_CLASS, IntSumCombiner.class.getName()));
        if (MPI_D.COMM_BIPARTITE_O != null) {
            GeneratedWords generator = new GeneratedWords(seed, MPI_D.Comm_rank(MPI_D.COMM_BIPARTITE_O), vocabulary,
                    skewed);
            IntWritable one = new IntWritable(1);
            Text word = new Text();
            for (long i = 0; i < words; i++) {
                word.set(generator.next());
                MPI_D.Send(word, one);
            }
        } else if (MPI_D.COMM_BIPARTITE_A != null) {
            Files.createDirectories(out);
            Path part = out.resolve("part-" + MPI_D.Comm_rank(MPI_D.COMM_BIPARTITE_A));
            try (BufferedWriter writer = Files.newBufferedWriter(part, StandardCharsets.UTF_8)) {
                Text current = null;
                long count = 0;
                for (Object[] pair = MPI_D.Recv(); pair != null; pair = MPI_D.Recv()) {
                    Text key = (Text) pair[0];
                    if (current != null && !current.equals(key)) {
                        writer.write(current + "\t" + count + "\n");
                        count = 0;
                    }
                    current = key;
                    count += ((IntWritable) pair[1]).get();
                }
                if (current != null) {
                    writer.write(current + "\t" + count + "\n");
                }
            }
        }
        MPI_D.Finalize();
    }
}
