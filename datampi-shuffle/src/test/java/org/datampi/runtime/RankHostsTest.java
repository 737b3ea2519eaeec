package org.datampi.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class RankHostsTest {
    @Test
    void ranksFillingEachHostInTurnAreRanges() {
        assertEquals("0-1 on dmp1; 2-3 on dmp2; 4 on dmp3",
                RankHosts.describe(List.of("dmp1", "dmp1", "dmp2", "dmp2", "dmp3")));
    }

    @Test
    void ranksGoingRoundTheHostsAreListedPerHost() {
        assertEquals("0,2,4 on dmp1; 1,3 on dmp2", RankHosts.describe(List.of("dmp1", "dmp2", "dmp1", "dmp2", "dmp1")));
        assertEquals("0-1,4 on a; 2-3 on b", RankHosts.describe(List.of("a", "a", "b", "b", "a")));
    }

    @Test
    void aSingleRank() {
        assertEquals("0 on node7", RankHosts.describe(List.of("node7")));
    }
}
