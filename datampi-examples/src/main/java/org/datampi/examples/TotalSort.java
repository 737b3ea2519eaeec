package org.datampi.examples;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;

import org.datampi.mpid.MPI_D;
import org.datampi.mpid.MPI_D_Exception;
import org.datampi.mpid.MpidConf;

/**
 * A total sort of raw byte pairs: O tasks send {@link GeneratedRecords}, a range partitioner keeps A task order equal
 * to key order, and each A task writes {@code OUTDIR/part-A} with "hex key TAB hex value" lines. Concatenating the
 * parts in A task order gives every record sorted by unsigned key bytes.
 *
 * <p>Arguments: {@code OUTDIR RECORDS_PER_O_TASK SEED [skewed]} (skewed: every other key the same, {@link
 * GeneratedRecords}).
 */
public final class TotalSort {
    private TotalSort() {
    }

    public static void main(String[] args) throws MPI_D_Exception, IOException {
        if (args.length < 3) {
            throw new IllegalArgumentException("Usage: TotalSort OUTDIR RECORDS_PER_O_TASK SEED [skewed]");
        }
        boolean skewed = args.length > 3 && args[3].equals("skewed");
        Path out = Path.of(args[0]);
        long records = Long.parseLong(args[1]);
        long seed = Long.parseLong(args[2]);

        MPI_D.Init(args, MPI_D.Mode.Common, Map.of(
                MpidConf.KEY_CLASS, MpidConf.BYTES,
                MpidConf.VALUE_CLASS, MpidConf.BYTES,
                MpidConf.PARTITIONER_CLASS, KeyRangePartitioner.class.getName()));
        if (MPI_D.COMM_BIPARTITE_O != null) {
            GeneratedRecords generator = new GeneratedRecords(seed, MPI_D.Comm_rank(MPI_D.COMM_BIPARTITE_O),
                    skewed);
            for (long i = 0; i < records; i++) {
                int length = generator.nextKey();
                byte[] key = Arrays.copyOf(generator.key(), length);
                MPI_D.Send(key, GeneratedRecords.valueFor(key, length));
            }
        } else if (MPI_D.COMM_BIPARTITE_A != null) {
            Files.createDirectories(out);
            HexFormat hex = HexFormat.of();
            Path part = out.resolve("part-" + MPI_D.Comm_rank(MPI_D.COMM_BIPARTITE_A));
            try (BufferedWriter writer = Files.newBufferedWriter(part, StandardCharsets.UTF_8)) {
                for (Object[] pair = MPI_D.Recv(); pair != null; pair = MPI_D.Recv()) {
                    writer.write(hex.formatHex((byte[]) pair[0]) + "\t" + hex.formatHex((byte[]) pair[1]) + "\n");
                }
            }
        }
        MPI_D.Finalize();
    }
}
