package org.datampi.mpid;

/** The keys of the configuration given to {@link MPI_D#Init}, as in DataMPI. */
public final class MpidConf {
    /** Class of the keys: a Hadoop Writable, or {@value #BYTES} for raw byte arrays (the default). */
    public static final String KEY_CLASS = "mpid.key.class";
    /** Class of the values: a Hadoop Writable, or {@value #BYTES} for raw byte arrays (the default). */
    public static final String VALUE_CLASS = "mpid.value.class";
    /** A Hadoop RawComparator over serialized keys; defaults to the key class's registered comparator. */
    public static final String COMPARATOR_CLASS = "mpid.comparator.class";
    /** A {@link Partitioner}; defaults to {@link HashPartitioner}. */
    public static final String PARTITIONER_CLASS = "mpid.partitioner.class";
    /** A {@link Combiner} applied to each sorted block before it is sent; none by default. */
    public static final String COMBINER_CLASS = "mpid.combiner.class";

    /** The value of {@link #KEY_CLASS} and {@link #VALUE_CLASS} for raw byte arrays. */
    public static final String BYTES = "bytes";

    private MpidConf() {
    }
}
