package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.datampi.mpid.HostNames;
import org.datampi.shuffle.ShuffleSettings;
import org.junit.jupiter.api.Test;

class OTaskSchedulerTest {
    /** The group's ranks, one per host name the tests use: rank i runs on HOSTS.get(i). */
    private static final List<String> HOSTS = List.of("a", "b", "dmp1", "dmp2", "dmp3", "h0", "h1", "h2", "h3",
            "DMP4.cluster.local");
    private static final Duration WAIT = Duration.ofSeconds(ShuffleSettings.DEFAULT_LOCALITY_WAIT);

    private static OTaskScheduler scheduler(int oTasks) {
        OTaskScheduler tasks = new OTaskScheduler(oTasks, 0, progress -> { }, HOSTS, WAIT);
        tasks.open();
        return tasks;
    }

    /** A scheduler whose locality wait runs on {@code nanos[0]}. */
    private static OTaskScheduler scheduler(int oTasks, long[] nanos) {
        OTaskScheduler tasks = new OTaskScheduler(oTasks, 0, progress -> { }, HOSTS, () -> nanos[0],
                WAIT);
        tasks.open();
        return tasks;
    }

    /** The grant for the rank on {@code host}. */
    private static int grant(OTaskScheduler tasks, String host, int finishedTasks) {
        return tasks.grant(HOSTS.indexOf(host), finishedTasks);
    }

    @Test
    void handsOutEveryOTaskOnceInOrderWithoutPreferences() {
        OTaskScheduler tasks = scheduler(3);
        assertEquals(0, grant(tasks, "a", 0));
        assertEquals(1, grant(tasks, "b", 0));
        assertEquals(2, grant(tasks, "a", 1));
        assertEquals(-1, grant(tasks, "b", 1));
        assertEquals(-1, grant(tasks, "a", 1));
        assertEquals("0 of 0", tasks.locality());
    }

    @Test
    void aHostGetsTheTasksThatPreferItFirstThenAnyLeft() {
        OTaskScheduler tasks = scheduler(5, new long[] {0});
        tasks.prefer(0, List.of("dmp1", "dmp2"));
        tasks.prefer(1, List.of("dmp3"));
        tasks.prefer(2, List.of("dmp3"));
        tasks.prefer(3, List.of("dmp1"));
        assertEquals(1, grant(tasks, "dmp3", 0));
        assertEquals(0, grant(tasks, "dmp2", 0));
        assertEquals(2, grant(tasks, "dmp3", 1));
        assertEquals(4, grant(tasks, "dmp2", 1), "none prefers dmp2 any more: the lowest task not held for dmp1");
        assertEquals(3, grant(tasks, "dmp1", 0));
        assertEquals(-1, grant(tasks, "dmp1", 1));
        assertEquals("4 of 4", tasks.locality());
    }

    /**
     * Delay scheduling: a rank whose quick first task left it with nothing local does not take a task that prefers a
     * host whose ranks have not asked yet; they get it when they come within the locality wait.
     */
    @Test
    void aTaskIsHeldForItsHostsRanksThatHaveNotAskedYet() {
        long[] nanos = {0};
        OTaskScheduler tasks = scheduler(4, nanos);
        tasks.prefer(0, List.of("dmp1"));
        tasks.prefer(1, List.of("dmp2"));
        tasks.prefer(2, List.of("dmp3"));
        tasks.prefer(3, List.of("dmp3"));
        assertEquals(0, grant(tasks, "dmp1", 0));
        assertEquals(1, grant(tasks, "dmp2", 0));
        nanos[0] = WAIT.toNanos() / 2;
        assertEquals(TaskScheduler.ASK_AGAIN, grant(tasks, "dmp1", 1), "dmp3's rank has not asked yet");
        assertEquals(TaskScheduler.ASK_AGAIN, grant(tasks, "dmp2", 1));
        assertEquals(2, grant(tasks, "dmp3", 0));
        assertEquals(3, grant(tasks, "dmp1", 0), "every rank of dmp3 has asked: they are busy, any rank may take it");
        assertEquals(-1, grant(tasks, "dmp2", 0));
        assertEquals("3 of 4; elsewhere: 3 (on [dmp3]) to rank 2 on dmp1", tasks.locality());
    }

    /**
     * A task whose split a rank's cache holds prefers that rank: the rank gets it before its host's tasks; it is not
     * held for the rank (on one host as on many), so a rank with nothing of its own left takes it, the lowest first.
     */
    @Test
    void aTaskThatPrefersARankGoesToItFirstAndToAnotherRatherThanWait() {
        List<String> twoHosts = List.of("dmp1", "dmp1", "dmp2");
        OTaskScheduler tasks = new OTaskScheduler(6, 0, progress -> { }, twoHosts, () -> 0, WAIT);
        tasks.open();
        tasks.prefer(0, List.of("dmp1"));
        tasks.prefer(1, List.of(HostNames.ofRank(2)));
        tasks.prefer(2, List.of(HostNames.ofRank(1)));
        tasks.prefer(3, List.of(HostNames.ofRank(2)));
        tasks.prefer(4, List.of(HostNames.ofRank(2)));
        tasks.prefer(5, List.of(HostNames.ofRank(7)));
        assertEquals(2, tasks.grant(1, 0), "rank 1's own task before its host's");
        assertEquals(0, tasks.grant(1, 1), "then its host's");
        assertEquals(1, tasks.grant(0, 0), "rank 2 has not asked yet: its task is not held for it");
        assertEquals(3, tasks.grant(2, 0));
        assertEquals(4, tasks.grant(0, 1), "rank 2 is busy: the lowest task left");
        assertEquals(5, tasks.grant(2, 1), "no rank 7 in the group");
        assertEquals(-1, tasks.grant(1, 1));
        assertEquals("3 of 6; elsewhere: 1 (on [datampi-rank-2]) to rank 0 on dmp1, 4 (on [datampi-rank-2]) to rank 0 "
                + "on dmp1, 5 (on [datampi-rank-7]) to rank 2 on dmp2", tasks.locality());
    }

    @Test
    void aHostWhoseRanksDoNotAskWithinTheLocalityWaitLosesItsTasks() {
        long[] nanos = {0};
        OTaskScheduler tasks = scheduler(2, nanos);
        tasks.prefer(0, List.of("dmp1"));
        tasks.prefer(1, List.of("dmp3"));
        assertEquals(0, grant(tasks, "dmp1", 0));
        assertEquals(TaskScheduler.ASK_AGAIN, grant(tasks, "dmp1", 1));
        nanos[0] = WAIT.toNanos();
        assertEquals(1, grant(tasks, "dmp1", 0), "the wait is over: the rank that asks takes it");
        assertEquals(-1, grant(tasks, "dmp3", 0));
    }

    @Test
    void aLocalityWaitOfZeroHoldsNoTask() {
        OTaskScheduler tasks = new OTaskScheduler(2, 0, progress -> { }, HOSTS, () -> 0, Duration.ZERO);
        tasks.open();
        tasks.prefer(0, List.of("dmp1"));
        tasks.prefer(1, List.of("dmp3"));
        assertEquals(0, grant(tasks, "dmp1", 0));
        assertEquals(1, grant(tasks, "dmp1", 1), "no wait: dmp3's task goes to the rank that asks");
        assertEquals(-1, grant(tasks, "dmp3", 0));
    }

    @Test
    void noRankWaitsForAHostOutsideTheGroupNorForATaskWithoutPreference() {
        OTaskScheduler tasks = scheduler(3, new long[] {0});
        tasks.prefer(0, List.of("a"));
        tasks.prefer(1, List.of("elsewhere"));
        assertEquals(0, grant(tasks, "a", 0));
        assertEquals(1, grant(tasks, "a", 1), "no rank runs on the host it prefers");
        assertEquals(2, grant(tasks, "a", 1), "it prefers no host");
        assertEquals(-1, grant(tasks, "a", 1));
    }

    @Test
    void everyTaskIsGrantedExactlyOnceWhateverTheRequests() {
        OTaskScheduler tasks = scheduler(50);
        for (int task = 0; task < 50; task++) {
            tasks.prefer(task, List.of("h" + task % 3, "h" + (task + 1) % 3));
        }
        List<Integer> granted = new ArrayList<>();
        for (int request = 0; ; request++) {
            int task = grant(tasks, "h" + request % 4, 0);
            if (task == TaskScheduler.ASK_AGAIN) {
                continue;
            }
            if (task < 0) {
                break;
            }
            granted.add(task);
        }
        assertEquals(50, granted.size());
        assertEquals(50, granted.stream().distinct().count());
    }

    @Test
    void hostsCompareByShortNameIgnoringCase() {
        OTaskScheduler tasks = scheduler(2);
        tasks.prefer(1, List.of("DMP2.cluster.local"));
        tasks.prefer(0, List.of("dmp4"));
        assertEquals(1, grant(tasks, "dmp2", 0));
        assertEquals(0, grant(tasks, "DMP4.cluster.local", 0), "a rank's own host name is shortened too");
        assertEquals("10.0.0.2", HostNames.shortName("10.0.0.2"), "an address is not cut at its dots");
    }

    /** Rank 0's set-up gives the preferences; a rank whose set-up ended first waits for them. */
    @Test
    void noTaskIsGrantedBeforeRankZerosSetUpIsDone() {
        OTaskScheduler tasks = new OTaskScheduler(2, 0, progress -> { }, HOSTS, () -> 0, WAIT);
        assertEquals(TaskScheduler.ASK_AGAIN, grant(tasks, "dmp2", 0));
        tasks.prefer(0, List.of("dmp1"));
        tasks.prefer(1, List.of("dmp2"));
        tasks.open();
        assertEquals(1, grant(tasks, "dmp2", 0));
        assertEquals(0, grant(tasks, "dmp1", 0));
        assertEquals("2 of 2", tasks.locality());
    }

    @Test
    void onOneHostTasksAreGrantedBeforeRankZerosSetUpIsDone() {
        OTaskScheduler tasks = new OTaskScheduler(2, 0, progress -> { }, List.of("vm", "VM"), WAIT);
        assertEquals(0, tasks.grant(1, 0), "every task is local to every rank: no placement to wait for");
    }

    @Test
    void aPreferenceForATaskTheJobDoesNotHaveIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> scheduler(2).prefer(2, List.of("h")));
    }
}
