package org.datampi.transport;

/** MPI thread support levels, mapped to the implementation's own constants by {@link Mpi}. */
public enum ThreadLevel {
    SINGLE, FUNNELED, SERIALIZED, MULTIPLE
}
