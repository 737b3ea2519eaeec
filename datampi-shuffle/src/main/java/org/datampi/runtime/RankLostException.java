package org.datampi.runtime;

/**
 * A peer rank is gone (its host down or unreachable, its process killed or stalled): the job cannot go on, but
 * nothing is wrong with the job itself, so its launcher may run it again on a fresh group. Reported with
 * {@link RankFailureLines#RANK_LOST} in place of a task, which is how the launcher tells it from a task's error.
 */
final class RankLostException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RankLostException(String message) {
        super(message);
    }
}
