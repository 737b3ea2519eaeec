package org.datampi.hive.dag;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.io.HiveInputFormat;
import org.apache.hadoop.hive.ql.io.orc.OrcSplit;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.split.SplitLocationProvider;
import org.apache.hive.common.util.Murmur3;
import org.apache.tez.common.TezUtils;
import org.apache.tez.dag.api.UserPayload;
import org.apache.tez.mapreduce.hadoop.MRInputHelpers;
import org.apache.tez.mapreduce.protos.MRRuntimeProtos.MRInputUserPayloadProto;
import org.datampi.mpid.HostNames;

/**
 * Which rank reads an ORC split when the ranks keep a cache of what they read ({@link RankIoCache}), as LLAP's
 * HostAffinitySplitLocationProvider picks a daemon per split: Hive's split generator asks the provider that
 * {@code hive.llap.split.location.provider.class} names for each split's locations, groups the splits by location
 * into tasks (Tez's grouper), and the tasks' locations become their preferences at rank 0's scheduler. Here an ORC
 * split's location is one rank of the stage ({@link HostNames#ofRank}), by a hash of its file and offset, so that
 * every query that reads that part of the file reads it on the same rank, whatever its columns and its grouping: the
 * rank whose cache holds it. The scheduler gives a rank its own tasks first and does not hold them for it: a rank with
 * none of its own left takes another's (a cache miss, not an idle core). The console's "O tasks data-local" counts
 * the tasks that ran on their rank. Only ORC splits go by rank, the format the cache holds: any other split keeps the
 * hosts of its blocks. A provider that is not told the stage's ranks keeps every split's own locations: Hive's
 * bucket map join vertex manager (BucketJoin) makes one from the input's original payload, and its tasks are
 * placed by bucket, not handed out.
 *
 * <p>The cost, as in LLAP: a split's rank replaces the hosts that hold its blocks, and since the splits no longer all
 * say "localhost" on a local file system, Tez's minimum group size (tez.grouping.min-size) applies there too.
 */
public final class RankAffinity implements SplitLocationProvider {
    /** The stage's ranks, in the configuration Hive hands the provider ({@link #tellRanks}). */
    static final String RANKS = "datampi.split.affinity.ranks";
    private static final String PROVIDER = HiveConf.ConfVars.LLAP_SPLIT_LOCATION_PROVIDER_CLASS.varname;

    private final int ranks;

    /**
     * Made by Hive (Utils.getSplitLocationProvider), with its input's configuration: the split generator's, which
     * says the stage's ranks ({@link #tellRanks}), or another's, which does not (0: every split its own locations).
     */
    public RankAffinity(Configuration conf) {
        this.ranks = Math.max(0, conf.getInt(RANKS, 0));
    }

    /** Makes QUERY's split generators place ORC splits by rank (RankIoCache: the cache is on). */
    public static void placeSplitsByRank(Configuration query) {
        query.set(PROVIDER, RankAffinity.class.getName());
    }

    /**
     * INPUT, Hive's MRInput payload of a root vertex whose configuration is VERTEX_CONF, with the stage's RANKS told
     * to the provider where the query places its splits by rank; else INPUT as it is.
     */
    static UserPayload tellRanks(UserPayload input, Configuration vertexConf, int ranks) throws IOException {
        if (input == null || !RankAffinity.class.getName().equals(vertexConf.get(PROVIDER))) {
            return input;
        }
        MRInputUserPayloadProto payload = MRInputHelpers.parseMRInputPayload(input);
        Configuration conf = TezUtils.createConfFromByteString(payload.getConfigurationBytes());
        conf.setInt(RANKS, ranks);
        return UserPayload.create(payload.toBuilder().setConfigurationBytes(TezUtils.createByteStringFromConf(conf))
                .build().toByteString().asReadOnlyByteBuffer());
    }

    @Override
    public String[] getLocations(InputSplit split) throws IOException {
        // Hive's splits are HiveInputSplits around the format's own.
        InputSplit own = split instanceof HiveInputFormat.HiveInputSplit hive ? hive.getInputSplit() : split;
        if (ranks == 0 || !(own instanceof OrcSplit orc)) {
            return split.getLocations();
        }
        return new String[] {HostNames.ofRank(rankOf(orc.getPath(), orc.getStart(), ranks))};
    }

    /** The rank of RANKS that reads the split of PATH from START. */
    static int rankOf(Path path, long start, int ranks) {
        byte[] key = (path.toString() + '@' + start).getBytes(StandardCharsets.UTF_8);
        return (int) Math.floorMod(Murmur3.hash64(key), (long) ranks);
    }

    @Override
    public String toString() {
        return "RankAffinity(" + ranks + " ranks)";
    }
}
