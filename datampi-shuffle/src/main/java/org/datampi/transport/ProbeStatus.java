package org.datampi.transport;

/** What a probe found: the message's source rank, tag and length in bytes. */
public record ProbeStatus(int source, int tag, int byteCount) {
}
