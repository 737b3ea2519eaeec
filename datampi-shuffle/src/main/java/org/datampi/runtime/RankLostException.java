package org.datampi.runtime;

/**
 * A peer rank is gone (its host down or unreachable, its process killed or stalled): the job cannot go on, but
 * nothing is wrong with the job itself, so its launcher may run it again on a fresh group. Reported with
 * {@link org.datampi.status.RankStatus.RankFailed#rankLost}, which is how the job runner tells it from a task's error.
 */
final class RankLostException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RankLostException(String message) {
        super(message);
    }
}
