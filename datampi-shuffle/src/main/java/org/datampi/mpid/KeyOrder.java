package org.datampi.mpid;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;

import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.util.ReflectionUtils;
import org.datampi.shuffle.pairs.BytesComparator;

/**
 * How keys are ordered: the key type and the comparator setting. O tasks announce it to every process, which needs
 * it to merge and spill the runs it receives before any A task of its own has started.
 */
public record KeyOrder(String keyType, String comparatorClass) {
    public KeyOrder {
        requireNonNull(keyType, "keyType is null");
        requireNonNull(comparatorClass, "comparatorClass is null");
    }

    /** The comparator this order describes ({@code comparatorClass} empty: the key type's default). */
    public RawComparator<?> comparator() {
        if (!comparatorClass.isEmpty()) {
            Class<?> type = TaskConf.loadClass(MpidConf.COMPARATOR_CLASS, comparatorClass);
            if (!RawComparator.class.isAssignableFrom(type)) {
                throw new IllegalArgumentException("Invalid value '" + comparatorClass + "' for "
                        + MpidConf.COMPARATOR_CLASS + ": expected an org.apache.hadoop.io.RawComparator");
            }
            return (RawComparator<?>) ReflectionUtils.newInstance(type, null);
        }
        if (keyType.equals(MpidConf.BYTES)) {
            return BytesComparator.INSTANCE;
        }
        Class<?> type = TaskConf.loadClass(MpidConf.KEY_CLASS, keyType);
        if (!WritableComparable.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException(MpidConf.KEY_CLASS + " " + keyType
                    + " is not WritableComparable: set " + MpidConf.COMPARATOR_CLASS);
        }
        return WritableComparator.get(type.asSubclass(WritableComparable.class));
    }

    public byte[] toBytes() {
        return (keyType + "\n" + comparatorClass).getBytes(StandardCharsets.UTF_8);
    }

    public static KeyOrder fromBytes(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        int newline = text.indexOf('\n');
        if (newline < 0) {
            throw new IllegalArgumentException("Corrupt key order message: " + text);
        }
        return new KeyOrder(text.substring(0, newline), text.substring(newline + 1));
    }
}
