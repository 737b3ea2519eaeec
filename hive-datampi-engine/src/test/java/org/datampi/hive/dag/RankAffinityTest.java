package org.datampi.hive.dag;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.io.HiveInputFormat;
import org.apache.hadoop.hive.ql.io.orc.OrcInputFormat;
import org.apache.hadoop.hive.ql.io.orc.OrcSplit;
import org.apache.hadoop.mapred.FileSplit;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.tez.common.TezUtils;
import org.apache.tez.dag.api.UserPayload;
import org.apache.tez.mapreduce.hadoop.MRInputHelpers;
import org.apache.tez.mapreduce.protos.MRRuntimeProtos.MRInputUserPayloadProto;
import org.datampi.mpid.HostNames;
import org.junit.jupiter.api.Test;

class RankAffinityTest {
    @Test
    void anOrcSplitsRankDependsOnItsFileAndOffsetOnlyAndTheRanksShareTheSplits() throws Exception {
        RankAffinity affinity = new RankAffinity(ranks(4));
        Map<String, Integer> perRank = new HashMap<>();
        for (int file = 0; file < 50; file++) {
            for (long start : new long[] {0, 64L << 20}) {
                Path path = new Path("hdfs://nn/warehouse/lineitem/00000" + file + "_0");
                String[] first = affinity.getLocations(hive(orc(path, start, 1000, "dn1")));
                String[] again = affinity.getLocations(hive(orc(path, start, 5, "dn2", "dn3")));
                assertArrayEquals(first, again, "the same part of the file, whatever the split's length and hosts");
                assertEquals(1, first.length);
                perRank.merge(first[0], 1, Integer::sum);
            }
        }
        assertEquals(4, perRank.size(), "every rank reads some of 100 splits: " + perRank);
        perRank.values().forEach(splits -> assertTrue(splits >= 10, "an even share: " + perRank));
        assertTrue(perRank.containsKey(HostNames.ofRank(3)), perRank.toString());
    }

    /** What the cache does not hold keeps its blocks' hosts, as does every split of a provider not told the ranks. */
    @Test
    void otherSplitsAndAProviderNotToldTheRanksKeepTheirOwnLocations() throws Exception {
        FileSplit text = new FileSplit(new Path("hdfs://nn/warehouse/t/000000_0"), 0, 100, new String[] {"dn1"});
        assertArrayEquals(new String[] {"dn1"}, new RankAffinity(ranks(4)).getLocations(hive(text)));
        RankAffinity untold = new RankAffinity(new JobConf(false));
        assertArrayEquals(new String[] {"dn2"}, untold.getLocations(hive(orc(new Path("file:/w/t/0"), 0, 10, "dn2"))));
    }

    private static OrcSplit orc(Path path, long start, long length, String... hosts) {
        return new OrcSplit(path, null, start, length, hosts, null, true, false, List.of(), length, length,
                path.getParent(), null);
    }

    private static HiveInputFormat.HiveInputSplit hive(InputSplit split) {
        return new HiveInputFormat.HiveInputSplit(split, OrcInputFormat.class.getName());
    }

    @Test
    void theRanksAreToldThroughTheInputsConfigurationWhereTheQueryPlacesSplitsByRank() throws Exception {
        Configuration query = new Configuration(false);
        query.set("hive.query.id", "q1");
        UserPayload input = mrInput(query);
        assertSame(input, RankAffinity.tellRanks(input, query, 3), "not asked: the payload as it is");

        RankAffinity.placeSplitsByRank(query);
        UserPayload told = RankAffinity.tellRanks(mrInput(query), query, 3);
        MRInputUserPayloadProto payload = MRInputHelpers.parseMRInputPayload(told);
        Configuration conf = TezUtils.createConfFromByteString(payload.getConfigurationBytes());
        assertEquals(3, conf.getInt(RankAffinity.RANKS, 0));
        assertEquals("q1", conf.get("hive.query.id"));
        assertTrue(payload.getGroupingEnabled(), "the rest of the payload kept");
        assertEquals("RankAffinity(3 ranks)", new RankAffinity(conf).toString());
    }

    /** Hive's MRInput payload with CONF, grouping on, as Hive's DagUtils makes it. */
    private static UserPayload mrInput(Configuration conf) throws Exception {
        return UserPayload.create(MRInputUserPayloadProto.newBuilder().setGroupingEnabled(true)
                .setConfigurationBytes(TezUtils.createByteStringFromConf(conf)).build().toByteString()
                .asReadOnlyByteBuffer());
    }

    private static Configuration ranks(int ranks) {
        Configuration conf = new Configuration(false);
        conf.setInt(RankAffinity.RANKS, ranks);
        return conf;
    }
}
