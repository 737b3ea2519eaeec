package org.datampi.mpid;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;

class KeyValueSerdeTest {
    /** A subclass, as Hive's HiveKey is: it must come back as itself. */
    static final class TaggedBytes extends BytesWritable {
    }

    @Test
    void bytesWritablesAreWrittenInTheirOwnFormAndReadBackAsNewObjectsOfTheirClass() throws IOException {
        KeyValueSerde serde = KeyValueSerde.forType(MpidConf.KEY_CLASS, TaggedBytes.class.getName());
        assertInstanceOf(KeyValueSerde.BytesWritables.class, serde);
        for (int size : new int[] {0, 1, 255, 300, 70_000, 3}) {
            TaggedBytes key = new TaggedBytes();
            byte[] bytes = new byte[size];
            Arrays.fill(bytes, (byte) size);
            key.set(bytes, 0, size);

            serde.serialize(key);
            DataOutputBuffer own = new DataOutputBuffer();
            key.write(own);
            byte[] written = Arrays.copyOf(serde.bytes(), serde.length());
            assertArrayEquals(Arrays.copyOf(own.getData(), own.getLength()), written);

            byte[] framed = new byte[written.length + 7];
            System.arraycopy(written, 0, framed, 7, written.length);
            Object first = serde.deserialize(framed, 7, written.length);
            Object second = serde.deserialize(framed, 7, written.length);
            assertInstanceOf(TaggedBytes.class, first);
            assertNotSame(first, second);
            assertEquals(key, first);
        }
    }

    /** A subclass with a form of its own: written and read by its own methods. */
    static final class CountedBytes extends BytesWritable {
        @Override
        public void write(DataOutput out) throws IOException {
            out.writeByte(1);
            super.write(out);
        }

        @Override
        public void readFields(DataInput in) throws IOException {
            in.readByte();
            super.readFields(in);
        }
    }

    @Test
    void aBytesWritableWithAFormOfItsOwnKeepsIt() throws IOException {
        KeyValueSerde serde = KeyValueSerde.forType(MpidConf.VALUE_CLASS, CountedBytes.class.getName());
        assertInstanceOf(KeyValueSerde.Writables.class, serde);
        CountedBytes value = new CountedBytes();
        value.set(new byte[] {4, 5}, 0, 2);
        serde.serialize(value);
        assertEquals(7, serde.length());
        assertEquals(value, serde.deserialize(serde.bytes(), 0, serde.length()));
    }

    @Test
    void aLengthFieldThatDisagreesIsCorrupt() {
        KeyValueSerde serde = KeyValueSerde.forType(MpidConf.VALUE_CLASS, BytesWritable.class.getName());
        IOException error = assertThrows(IOException.class,
                () -> serde.deserialize(new byte[] {0, 0, 0, 9, 1, 2}, 0, 6));
        assertTrue(error.getMessage().contains(BytesWritable.class.getName()), error.getMessage());
        assertThrows(IOException.class, () -> serde.deserialize(new byte[] {0, 0}, 0, 2));
    }

    @Test
    void otherWritablesKeepTheGeneralForm() throws IOException {
        KeyValueSerde serde = KeyValueSerde.forType(MpidConf.KEY_CLASS, Text.class.getName());
        assertInstanceOf(KeyValueSerde.Writables.class, serde);
        serde.serialize(new Text("datampi"));
        assertEquals(new Text("datampi"), serde.deserialize(serde.bytes(), 0, serde.length()));
    }

    @Test
    void sendingTheWrongTypeToABytesWritableSerdeNamesTheSetting() {
        KeyValueSerde serde = KeyValueSerde.forType(MpidConf.KEY_CLASS, TaggedBytes.class.getName());
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> serde.serialize(new BytesWritable()));
        assertTrue(error.getMessage().contains(MpidConf.KEY_CLASS), error.getMessage());
    }
}
