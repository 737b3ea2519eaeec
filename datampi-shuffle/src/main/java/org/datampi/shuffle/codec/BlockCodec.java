package org.datampi.shuffle.codec;

import java.nio.ByteBuffer;

import com.github.luben.zstd.Zstd;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FastDecompressor;

/** How a block's pairs travel on the wire. Each block is compressed on its own, so blocks decode independently. */
public enum BlockCodec {
    NONE {
        @Override
        public int maxCompressedLength(int rawLength) {
            return rawLength;
        }

        @Override
        public int compress(byte[] source, int length, ByteBuffer target) {
            target.put(source, 0, length);
            return length;
        }

        @Override
        public void decompress(ByteBuffer source, int compressedLength, byte[] target, int rawLength) {
            source.get(target, 0, rawLength);
        }
    },
    LZ4 {
        @Override
        public int maxCompressedLength(int rawLength) {
            return Lz4.COMPRESSOR.maxCompressedLength(rawLength);
        }

        @Override
        public int compress(byte[] source, int length, ByteBuffer target) {
            int written = Lz4.COMPRESSOR.compress(ByteBuffer.wrap(source, 0, length), 0, length, target,
                    target.position(), target.remaining());
            target.position(target.position() + written);
            return written;
        }

        @Override
        public void decompress(ByteBuffer source, int compressedLength, byte[] target, int rawLength) {
            Lz4.DECOMPRESSOR.decompress(source, source.position(), ByteBuffer.wrap(target), 0, rawLength);
            source.position(source.position() + compressedLength);
        }
    },
    ZSTD {
        private static final int LEVEL = 1;

        @Override
        public int maxCompressedLength(int rawLength) {
            return (int) Zstd.compressBound(rawLength);
        }

        @Override
        public int compress(byte[] source, int length, ByteBuffer target) {
            byte[] compressed = new byte[maxCompressedLength(length)];
            int written = (int) Zstd.compressByteArray(compressed, 0, compressed.length, source, 0, length, LEVEL);
            checkZstd(written, "compress");
            target.put(compressed, 0, written);
            return written;
        }

        @Override
        public void decompress(ByteBuffer source, int compressedLength, byte[] target, int rawLength) {
            byte[] compressed = new byte[compressedLength];
            source.get(compressed);
            checkZstd(Zstd.decompressByteArray(target, 0, rawLength, compressed, 0, compressedLength), "decompress");
        }

        private void checkZstd(long result, String operation) {
            if (Zstd.isError(result)) {
                throw new IllegalStateException("zstd " + operation + " failed: " + Zstd.getErrorName(result));
            }
        }
    };

    public abstract int maxCompressedLength(int rawLength);

    /** Writes source[0, length) into target at its position, advancing it; returns the bytes written. */
    public abstract int compress(byte[] source, int length, ByteBuffer target);

    /** Reads compressedLength bytes at source's position (advancing it) and writes rawLength bytes into target. */
    public abstract void decompress(ByteBuffer source, int compressedLength, byte[] target, int rawLength);

    /** Holder so that LZ4's native library loads only when LZ4 is used. */
    private static final class Lz4 {
        static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
        static final LZ4FastDecompressor DECOMPRESSOR = LZ4Factory.fastestInstance().fastDecompressor();
    }
}
