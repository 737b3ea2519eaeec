package org.datampi.shuffle.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.datampi.mpid.Combiner;
import org.datampi.mpid.MpidConf;
import org.datampi.mpid.TaskConf;
import org.datampi.shuffle.buffer.BufferPool;
import org.datampi.shuffle.buffer.Pairs;
import org.datampi.shuffle.buffer.SendPartition;
import org.datampi.shuffle.codec.BlockCodec;
import org.datampi.shuffle.merge.MemoryRunCursor;
import org.datampi.shuffle.merge.RunCursor;
import org.datampi.shuffle.pairs.BytesComparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class BlockEncoderTest {
    /** Sums IntWritable counts of a key; named in the task's configuration, as a program names its combiner. */
    public static final class IntSumCombiner implements Combiner {
        @Override
        public void combine(Object key, Iterator<Object> values, BiConsumer<Object, Object> output) {
            int sum = 0;
            while (values.hasNext()) {
                sum += ((IntWritable) values.next()).get();
            }
            output.accept(key, new IntWritable(sum));
        }
    }

    @ParameterizedTest
    @EnumSource(BlockCodec.class)
    void aBlockArrivesAsTheSortedRunOfItsPairs(BlockCodec codec) {
        SendPartition block = new SendPartition(1 << 20);
        List<byte[][]> pairs = Pairs.random(3, 5_000, 8);
        for (byte[][] pair : pairs) {
            block.append(pair[0], 0, pair[0].length, pair[1], 0, pair[1].length);
        }
        BufferPool pool = new BufferPool(BlockEncoder.maxWireBytes(codec, 1 << 20), 2);
        BlockEncoder encoder = new BlockEncoder(codec, BytesComparator.INSTANCE, Optional.empty(), pool);

        ByteBuffer wire = encoder.encode(4, block);
        ReceivedBlock received = ReceivedBlock.decode(wire);

        assertEquals(4, received.partition());
        assertEquals(pairs.size(), received.pairCount());
        List<String> read = Pairs.drainSorted(new MemoryRunCursor(received.pairs(), received.pairs().length));
        assertEquals(pairs.stream().map(Pairs::text).sorted().toList(), read.stream().sorted().toList());
    }

    @Test
    void compressionShrinksRepetitiveBlocks() {
        SendPartition block = new SendPartition(1 << 20);
        byte[] value = "the same value again".getBytes();
        for (int i = 0; i < 10_000; i++) {
            byte[] key = ("key-" + (i % 50)).getBytes();
            block.append(key, 0, key.length, value, 0, value.length);
        }
        BufferPool pool = new BufferPool(BlockEncoder.maxWireBytes(BlockCodec.LZ4, 1 << 20), 2);
        int plain = new BlockEncoder(BlockCodec.NONE, BytesComparator.INSTANCE, Optional.empty(), pool)
                .encode(0, block).remaining();
        int lz4 = new BlockEncoder(BlockCodec.LZ4, BytesComparator.INSTANCE, Optional.empty(), pool)
                .encode(0, block).remaining();
        int zstd = new BlockEncoder(BlockCodec.ZSTD, BytesComparator.INSTANCE, Optional.empty(), pool)
                .encode(0, block).remaining();
        assertTrue(lz4 < plain / 4, "lz4 " + lz4 + " vs " + plain);
        assertTrue(zstd < plain / 4, "zstd " + zstd + " vs " + plain);
    }

    @Test
    void theCombinerSumsEachKeyOfABlockOnce() throws Exception {
        TaskConf conf = TaskConf.parse(Map.of(MpidConf.KEY_CLASS, Text.class.getName(), MpidConf.VALUE_CLASS,
                IntWritable.class.getName(), MpidConf.COMBINER_CLASS, IntSumCombiner.class.getName()));
        SendPartition block = new SendPartition(1 << 20);
        DataOutputBuffer key = new DataOutputBuffer();
        DataOutputBuffer value = new DataOutputBuffer();
        Map<String, Integer> expected = new HashMap<>();
        for (int i = 0; i < 3_000; i++) {
            String word = "w" + (i * 7919 % 37);
            int count = i % 5;
            expected.merge(word, count, Integer::sum);
            key.reset();
            new Text(word).write(key);
            value.reset();
            new IntWritable(count).write(value);
            block.append(key.getData(), 0, key.getLength(), value.getData(), 0, value.getLength());
        }
        BufferPool pool = new BufferPool(BlockEncoder.maxWireBytes(BlockCodec.NONE, 1 << 20), 2);
        BlockEncoder encoder = new BlockEncoder(BlockCodec.NONE, conf.comparator(), conf.blockCombiner(), pool);

        ReceivedBlock received = ReceivedBlock.decode(encoder.encode(0, block));

        assertEquals(expected.size(), received.pairCount());
        Map<String, Integer> combined = new HashMap<>();
        RunCursor cursor = new MemoryRunCursor(received.pairs(), received.pairs().length);
        String previous = null;
        while (cursor.next()) {
            Text word = (Text) conf.keySerde().deserialize(cursor.keyBuffer(), cursor.keyOffset(), cursor.keyLength());
            IntWritable sum = (IntWritable) conf.valueSerde().deserialize(cursor.valueBuffer(), cursor.valueOffset(),
                    cursor.valueLength());
            assertTrue(previous == null || previous.compareTo(word.toString()) < 0, "one sorted pair per key");
            previous = word.toString();
            combined.put(word.toString(), sum.get());
        }
        assertEquals(expected, combined);
    }
}
