package org.datampi.mpid;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class HostNamesTest {
    @Test
    void hostsCompareByShortLowerCaseName() {
        assertEquals("dmp2", HostNames.shortName("DMP2.cluster.local"));
        assertEquals("10.213.0.2", HostNames.shortName("10.213.0.2"));
    }

    /** HDFS block locations name hosts; "localhost" (a local file, a table-less query) names none. */
    @Test
    void aSplitsHostsLeaveOutLocalhost() {
        assertEquals(List.of("dmp1", "dmp3"), HostNames.ofSplit(new String[] {"dmp1.cluster", "DMP3", "dmp1"}));
        assertEquals(List.of(), HostNames.ofSplit(new String[] {"localhost"}));
        assertEquals(List.of(), HostNames.ofSplit(Set.of("LOCALHOST")));
    }
}
