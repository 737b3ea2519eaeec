package org.datampi.mpid;

/** A failed MPI_D call, as DataMPI programs expect to catch it. */
public final class MPI_D_Exception extends Exception {
    private static final long serialVersionUID = 1L;

    public MPI_D_Exception(String message) {
        super(message);
    }

    public MPI_D_Exception(String message, Throwable cause) {
        super(message, cause);
    }
}
