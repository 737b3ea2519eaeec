package org.datampi.hive.client;

import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

import org.apache.hadoop.hive.ql.session.SessionState;

/**
 * Ends the JVM's warm ranks when the last Hive session that ran a datampi stage closes, so that they do not idle
 * until their own limit (10 minutes) holding their hosts' cores and memory. The CLI has one session; HiveServer2 has
 * many, sharing the warm ranks, and no hook for a session's close, but Hive runs a session's cleanup items when it
 * closes (SessionState.addCleanupItem): a session's first datampi stage registers one. Sessions that are never
 * closed are forgotten with their SessionState (weakly held); their JVM's end still ends the ranks.
 */
public final class SessionRanks {
    /** The sessions of this JVM that used its ranks, JVM-wide as the warm ranks they share ({@link RankPools}). */
    private static final Set<SessionState> OPEN = Collections.newSetFromMap(new WeakHashMap<>());

    private SessionRanks() {
    }

    /** SESSION runs a datampi stage (null, outside a session: nothing to track). Idempotent. */
    public static synchronized void usedBy(SessionState session) {
        if (session != null && OPEN.add(session)) {
            session.addCleanupItem(() -> closed(session));
        }
    }

    private static synchronized void closed(SessionState session) {
        OPEN.remove(session);
        if (OPEN.isEmpty()) {
            DataMPIJobRunner.releaseRanks();
        }
    }
}
