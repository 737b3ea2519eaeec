package org.datampi.shuffle.merge;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;

/**
 * A cursor over a spilled run, read sequentially in large pieces into one array; the current pair's key and value
 * are slices of that array (no copy), which a pair larger than the array grows to hold.
 */
public final class FileRunCursor implements RunCursor {
    private static final int READ_BUFFER_BYTES = 64 * 1024;
    /** Two vints of at most 5 bytes each: enough to know a pair's length. */
    private static final int MOST_HEADER_BYTES = 10;
    /** The largest array the JVM makes, less a margin. */
    private static final int MOST_PAIR_BYTES = Integer.MAX_VALUE - 8;

    private final Path file;
    private final InputStream in;
    private final Runnable onClose;
    private boolean closed;
    private boolean endOfFile;
    private byte[] buffer = new byte[READ_BUFFER_BYTES];
    /** buffer[position, limit) is read from the file and not yet handed out. */
    private int position;
    private int limit;
    private int keyOffset;
    private int keyLength;
    private int valueLength;

    public FileRunCursor(Path file) {
        this(file, () -> { });
    }

    /** A cursor over FILE that runs ON_CLOSE once, when it is closed. */
    public FileRunCursor(Path file, Runnable onClose) {
        this.file = file;
        this.onClose = onClose;
        try {
            this.in = Files.newInputStream(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open spill file " + file, e);
        }
    }

    @Override
    public boolean next() {
        try {
            if (!fill(MOST_HEADER_BYTES) && position == limit) {
                return false;
            }
            int keyLengthSize = lengthSize(position);
            if (limit - position <= keyLengthSize) {
                throw endsInsideAPair();
            }
            int valueLengthSize = lengthSize(position + keyLengthSize);
            int header = keyLengthSize + valueLengthSize;
            if (limit - position < header) {
                throw endsInsideAPair();
            }
            keyLength = WritableComparator.readVInt(buffer, position);
            valueLength = WritableComparator.readVInt(buffer, position + keyLengthSize);
            long size = (long) header + keyLength + valueLength;
            if (keyLength < 0 || valueLength < 0 || size > MOST_PAIR_BYTES) {
                throw corrupt("a pair of " + keyLength + " and " + valueLength + " bytes");
            }
            if (!fill((int) size)) {
                throw endsInsideAPair();
            }
            keyOffset = position + header;
            position += size;
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read spill file " + file, e);
        }
    }

    /**
     * Reads until buffer[position, limit) holds at least wanted bytes (moving them to the start of the array, or into a
     * larger one, first if needed); false if the file ends before.
     */
    private boolean fill(int wanted) throws IOException {
        if (limit - position >= wanted) {
            return true;
        }
        if (buffer.length - position < wanted) {
            byte[] target = wanted > buffer.length ? new byte[Math.max(wanted, buffer.length * 2)] : buffer;
            System.arraycopy(buffer, position, target, 0, limit - position);
            buffer = target;
            limit -= position;
            position = 0;
        }
        while (limit - position < wanted && !endOfFile) {
            int read = in.read(buffer, limit, buffer.length - limit);
            if (read < 0) {
                endOfFile = true;
            } else {
                limit += read;
            }
        }
        return limit - position >= wanted;
    }

    /** The size of the vint at offset: an int's (at most 5 bytes), or the file is corrupt. */
    private int lengthSize(int offset) {
        int size = WritableUtils.decodeVIntSize(buffer[offset]);
        if (size > Integer.BYTES + 1) {
            throw corrupt("a length of " + size + " bytes");
        }
        return size;
    }

    private UncheckedIOException corrupt(String what) {
        return new UncheckedIOException(new IOException("Spill file " + file + " is corrupt: " + what));
    }

    private UncheckedIOException endsInsideAPair() {
        return new UncheckedIOException(new EOFException("Spill file " + file + " ends inside a pair"));
    }

    @Override
    public byte[] keyBuffer() {
        return buffer;
    }

    @Override
    public int keyOffset() {
        return keyOffset;
    }

    @Override
    public int keyLength() {
        return keyLength;
    }

    @Override
    public byte[] valueBuffer() {
        return buffer;
    }

    @Override
    public int valueOffset() {
        return keyOffset + keyLength;
    }

    @Override
    public int valueLength() {
        return valueLength;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        onClose.run();
        try {
            in.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot close spill file " + file, e);
        }
    }
}
