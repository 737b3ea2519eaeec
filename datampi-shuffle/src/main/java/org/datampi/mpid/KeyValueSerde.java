package org.datampi.mpid;

import static java.util.Objects.requireNonNull;

import java.io.IOException;

import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Serializes keys or values: Hadoop Writables of one class, or raw byte arrays. Not thread-safe: each task (and each
 * combiner) has its own instances, since {@link #serialize} reuses one buffer.
 */
public abstract sealed class KeyValueSerde permits KeyValueSerde.Bytes, KeyValueSerde.Writables {
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
        return new Writables(settingKey, type.asSubclass(Writable.class));
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
}
