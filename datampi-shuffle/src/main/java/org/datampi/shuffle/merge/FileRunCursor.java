package org.datampi.shuffle.merge;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.hadoop.io.WritableUtils;

/** A cursor over a spilled run, read sequentially through a buffer; pairs are copied into reused arrays. */
public final class FileRunCursor implements RunCursor {
    private static final int READ_BUFFER_BYTES = 64 * 1024;

    private final Path file;
    private final DataInputStream in;
    private final Runnable onClose;
    private boolean closed;
    private byte[] key = new byte[64];
    private byte[] value = new byte[64];
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
            this.in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), READ_BUFFER_BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open spill file " + file, e);
        }
    }

    @Override
    public boolean next() {
        try {
            int first = in.read();
            if (first < 0) {
                return false;
            }
            keyLength = readVIntStartingWith((byte) first);
            valueLength = WritableUtils.readVInt(in);
            if (key.length < keyLength) {
                key = new byte[Math.max(keyLength, key.length * 2)];
            }
            if (value.length < valueLength) {
                value = new byte[Math.max(valueLength, value.length * 2)];
            }
            in.readFully(key, 0, keyLength);
            in.readFully(value, 0, valueLength);
            return true;
        } catch (EOFException e) {
            throw new UncheckedIOException("Spill file " + file + " ends inside a pair", e);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read spill file " + file, e);
        }
    }

    /** Hadoop's vint decoding, given its first byte (already read to detect the end of the file). */
    private int readVIntStartingWith(byte first) throws IOException {
        int size = WritableUtils.decodeVIntSize(first);
        if (size == 1) {
            return first;
        }
        long value = 0;
        for (int i = 0; i < size - 1; i++) {
            value = (value << 8) | (in.readByte() & 0xFF);
        }
        return (int) (WritableUtils.isNegativeVInt(first) ? ~value : value);
    }

    @Override
    public byte[] keyBuffer() {
        return key;
    }

    @Override
    public int keyOffset() {
        return 0;
    }

    @Override
    public int keyLength() {
        return keyLength;
    }

    @Override
    public byte[] valueBuffer() {
        return value;
    }

    @Override
    public int valueOffset() {
        return 0;
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
