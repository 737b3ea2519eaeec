package org.datampi.bench;

/** An order-independent digest of the pairs a shuffle delivered: count, payload bytes and a sum of pair hashes. */
final class PairChecksum {
    private long pairs;
    private long bytes;
    private long hashSum;

    void add(byte[] key, int keyLength, byte[] value, int valueLength) {
        pairs++;
        bytes += keyLength + valueLength;
        hashSum += 31L * hash(key, keyLength) + hash(value, valueLength);
    }

    /** Arrays.hashCode of the first length bytes, without copying them. */
    private static int hash(byte[] bytes, int length) {
        int hash = 1;
        for (int i = 0; i < length; i++) {
            hash = 31 * hash + bytes[i];
        }
        return hash;
    }

    long pairs() {
        return pairs;
    }

    long bytes() {
        return bytes;
    }

    long hashSum() {
        return hashSum;
    }
}
