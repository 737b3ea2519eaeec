package org.datampi.mpid;

/** Picks the A task a pair goes to. Set it with {@link MpidConf#PARTITIONER_CLASS}; needs a public no-arg constructor. */
@FunctionalInterface
public interface Partitioner {
    int getPartition(Object key, Object value, int numPartitions);
}
