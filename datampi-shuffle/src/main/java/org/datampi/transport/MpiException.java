package org.datampi.transport;

/** An MPI call failed; the message names the call and the implementation's error string. */
public final class MpiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MpiException(String message) {
        super(message);
    }
}
