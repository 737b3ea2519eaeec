package org.datampi.mpid;

import static java.util.Objects.requireNonNull;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;

import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Serializes keys or values: Hadoop Writables of one class, or raw byte arrays. Not thread-safe: each task (and each
 * combiner) has its own instances, since {@link #serialize} reuses one buffer.
 */
public abstract sealed class KeyValueSerde
        permits KeyValueSerde.Bytes, KeyValueSerde.Writables, KeyValueSerde.BytesWritables {
    /** Serializes object; its bytes are then {@link #bytes()}[0, {@link #length()}) until the next call. */
    public abstract void serialize(Object object) throws IOException;

    public abstract byte[] bytes();

    public abstract int length();

    /** A new object read from bytes[offset, offset + length). */
    public abstract Object deserialize(byte[] bytes, int offset, int length) throws IOException;

    public abstract String typeName();

    static KeyValueSerde forType(String settingKey, String typeName) {
        if (typeName == null || typeName.equals(MpidConf.BYTES)) {
            return new Bytes(settingKey);
        }
        Class<?> type = TaskConf.loadClass(settingKey, typeName);
        if (!Writable.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException("Invalid value '" + typeName + "' for " + settingKey
                    + ": expected a Hadoop Writable class or '" + MpidConf.BYTES + "'");
        }
        if (BytesWritable.class.isAssignableFrom(type) && keepsBytesWritablesForm(type)) {
            return new BytesWritables(settingKey, type.asSubclass(BytesWritable.class));
        }
        return new Writables(settingKey, type.asSubclass(Writable.class));
    }

    /** Whether type (a BytesWritable) writes and reads itself as BytesWritable does, overriding neither. */
    private static boolean keepsBytesWritablesForm(Class<?> type) {
        try {
            return type.getMethod("write", DataOutput.class).getDeclaringClass() == BytesWritable.class
                    && type.getMethod("readFields", DataInput.class).getDeclaringClass() == BytesWritable.class;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("BytesWritable without write or readFields: " + type.getName(), e);
        }
    }

    /** Raw byte arrays are their own serialized form: no copy. */
    static final class Bytes extends KeyValueSerde {
        private final String settingKey;
        private byte[] current;

        Bytes(String settingKey) {
            this.settingKey = settingKey;
        }

        @Override
        public void serialize(Object object) {
            if (!(object instanceof byte[] bytes)) {
                throw new IllegalArgumentException(settingKey + " is '" + MpidConf.BYTES + "' but a "
                        + (object == null ? "null" : object.getClass().getName()) + " was sent");
            }
            current = bytes;
        }

        @Override
        public byte[] bytes() {
            return current;
        }

        @Override
        public int length() {
            return current.length;
        }

        @Override
        public Object deserialize(byte[] bytes, int offset, int length) {
            byte[] copy = new byte[length];
            System.arraycopy(bytes, offset, copy, 0, length);
            return copy;
        }

        @Override
        public String typeName() {
            return MpidConf.BYTES;
        }
    }

    static final class Writables extends KeyValueSerde {
        private final String settingKey;
        private final Class<? extends Writable> type;
        private final DataInputBuffer input = new DataInputBuffer();
        private final DataOutputBuffer output = new DataOutputBuffer();

        Writables(String settingKey, Class<? extends Writable> type) {
            this.settingKey = settingKey;
            this.type = requireNonNull(type, "type is null");
        }

        @Override
        public void serialize(Object object) throws IOException {
            if (!type.isInstance(object)) {
                throw new IllegalArgumentException(settingKey + " is " + type.getName() + " but a "
                        + (object == null ? "null" : object.getClass().getName()) + " was sent");
            }
            output.reset();
            ((Writable) object).write(output);
        }

        @Override
        public byte[] bytes() {
            return output.getData();
        }

        @Override
        public int length() {
            return output.getLength();
        }

        @Override
        public Object deserialize(byte[] bytes, int offset, int length) throws IOException {
            Writable object = ReflectionUtils.newInstance(type, null);
            input.reset(bytes, offset, length);
            object.readFields(input);
            return object;
        }

        @Override
        public String typeName() {
            return type.getName();
        }
    }

    /**
     * BytesWritable and its subclasses that do not override its write and readFields (Hive's HiveKey and its
     * values: every pair of a Hive shuffle) in exactly the form their own write makes (a 4-byte big-endian length,
     * then the bytes), so comparators that skip the length (HiveKey.Comparator) and runs already spilled read the
     * same; but written and read with two array copies and no stream, and new objects made from a cached
     * constructor. Profiled on TPC-H q21 at scale 10, the stream form
     * (a synchronized DataOutputStream call per int byte) and ReflectionUtils.newInstance per pair took 11% of a
     * rank's CPU.
     */
    static final class BytesWritables extends KeyValueSerde {
        private static final int LENGTH_BYTES = Integer.BYTES;

        private final String settingKey;
        private final Class<? extends BytesWritable> type;
        private final Constructor<? extends BytesWritable> constructor;
        private byte[] buffer = new byte[256];
        private int length;

        BytesWritables(String settingKey, Class<? extends BytesWritable> type) {
            this.settingKey = requireNonNull(settingKey, "settingKey is null");
            this.type = requireNonNull(type, "type is null");
            try {
                this.constructor = type.getDeclaredConstructor();
                constructor.setAccessible(true);
            } catch (NoSuchMethodException e) {
                throw new IllegalArgumentException("Invalid value '" + type.getName() + "' for " + settingKey
                        + ": a Writable needs a constructor without arguments", e);
            }
        }

        @Override
        public void serialize(Object object) {
            if (!type.isInstance(object)) {
                throw new IllegalArgumentException(settingKey + " is " + type.getName() + " but a "
                        + (object == null ? "null" : object.getClass().getName()) + " was sent");
            }
            BytesWritable writable = (BytesWritable) object;
            int size = writable.getLength();
            length = LENGTH_BYTES + size;
            if (buffer.length < length) {
                buffer = Arrays.copyOf(buffer, Math.max(length, buffer.length * 2));
            }
            buffer[0] = (byte) (size >>> 24);
            buffer[1] = (byte) (size >>> 16);
            buffer[2] = (byte) (size >>> 8);
            buffer[3] = (byte) size;
            System.arraycopy(writable.getBytes(), 0, buffer, LENGTH_BYTES, size);
        }

        @Override
        public byte[] bytes() {
            return buffer;
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public Object deserialize(byte[] bytes, int offset, int length) throws IOException {
            int size = length - LENGTH_BYTES;
            if (size < 0 || WritableComparator.readInt(bytes, offset) != size) {
                throw new IOException("Corrupt " + type.getName() + ": " + length
                        + " bytes that do not start with their own length");
            }
            BytesWritable object = newInstance();
            object.set(bytes, offset + LENGTH_BYTES, size);
            return object;
        }

        private BytesWritable newInstance() {
            try {
                return constructor.newInstance();
            } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("Cannot make a " + type.getName() + " for " + settingKey, e);
            }
        }

        @Override
        public String typeName() {
            return type.getName();
        }
    }
}
