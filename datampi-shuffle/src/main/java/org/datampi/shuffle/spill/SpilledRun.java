package org.datampi.shuffle.spill;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.datampi.shuffle.merge.FileRunCursor;
import org.datampi.shuffle.merge.RunCursor;

/** A sorted run on local disk. */
public record SpilledRun(Path file, long bytes, long pairs) {
    public SpilledRun {
        requireNonNull(file, "file is null");
    }

    public RunCursor open() {
        return new FileRunCursor(file);
    }

    public void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete spill file " + file, e);
        }
    }
}
