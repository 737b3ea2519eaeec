package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import org.datampi.mpid.HostNames;
import org.junit.jupiter.api.Test;

class OTaskSchedulerTest {
    private static OTaskScheduler scheduler(int oTasks) {
        return new OTaskScheduler(oTasks, 0, new PrintStream(OutputStream.nullOutputStream()));
    }

    @Test
    void handsOutEveryOTaskOnceInOrderWithoutPreferences() {
        OTaskScheduler tasks = scheduler(3);
        assertEquals(0, tasks.grant("a", 0));
        assertEquals(1, tasks.grant("b", 0));
        assertEquals(2, tasks.grant("a", 1));
        assertEquals(-1, tasks.grant("b", 1));
        assertEquals(-1, tasks.grant("a", 1));
        assertEquals("0 of 0", tasks.locality());
    }

    @Test
    void aHostGetsTheTasksThatPreferItFirstThenAnyLeft() {
        OTaskScheduler tasks = scheduler(4);
        tasks.prefer(0, List.of("dmp1", "dmp2"));
        tasks.prefer(1, List.of("dmp3"));
        tasks.prefer(2, List.of("dmp3"));
        tasks.prefer(3, List.of("dmp1"));
        assertEquals(1, tasks.grant("dmp3", 0));
        assertEquals(0, tasks.grant("dmp2", 0));
        assertEquals(2, tasks.grant("dmp3", 1));
        assertEquals(3, tasks.grant("dmp2", 1), "none prefers dmp2 any more: the lowest task left");
        assertEquals(-1, tasks.grant("dmp1", 0));
        assertEquals("3 of 4", tasks.locality());
    }

    @Test
    void everyTaskIsGrantedExactlyOnceWhateverTheRequests() {
        OTaskScheduler tasks = scheduler(50);
        for (int task = 0; task < 50; task++) {
            tasks.prefer(task, List.of("h" + task % 3, "h" + (task + 1) % 3));
        }
        List<Integer> granted = new ArrayList<>();
        for (int request = 0; ; request++) {
            int task = tasks.grant("h" + request % 4, 0);
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
        assertEquals(1, tasks.grant("dmp2", 0));
        assertEquals("10.0.0.2", HostNames.shortName("10.0.0.2"), "an address is not cut at its dots");
    }

    @Test
    void aPreferenceForATaskTheJobDoesNotHaveIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> scheduler(2).prefer(2, List.of("h")));
    }
}
