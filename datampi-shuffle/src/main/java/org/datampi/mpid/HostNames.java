package org.datampi.mpid;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/** How hosts compare when tasks prefer them: by short name, case-insensitive ("DMP2.cluster.local" is "dmp2"). */
public final class HostNames {
    private static final String RANK_LOCATION = "datampi-rank-";

    private HostNames() {
    }

    /**
     * The hosts that hold a split's data, as tasks prefer them and count themselves data-local: by short name, each
     * once, without "localhost", which names no host (every host is it to itself): the local file system's splits and
     * Hive's table-less ones say it, on one machine or many, and a task reading them is neither local nor remote.
     */
    public static List<String> ofSplit(Collection<String> locations) {
        return locations.stream().filter(location -> !location.equalsIgnoreCase("localhost"))
                .map(HostNames::shortName).distinct().toList();
    }

    /** The same for an array of locations (Hadoop's InputSplit and split meta-info give arrays). */
    public static List<String> ofSplit(String[] locations) {
        return ofSplit(Arrays.asList(locations));
    }

    /**
     * The location that names rank RANK itself, as a split's location: a task whose split says it prefers that rank
     * (the rank's memory holds the split's data: a cache's affinity), on whatever host the rank runs, before any other.
     */
    public static String ofRank(int rank) {
        if (rank < 0) {
            throw new IllegalArgumentException("No rank " + rank);
        }
        return RANK_LOCATION + rank;
    }

    /** The host's short name in lower case; an IP address stays whole. */
    public static String shortName(String host) {
        String name = host.toLowerCase(Locale.ROOT);
        int dot = name.indexOf('.');
        return dot > 0 && !Character.isDigit(name.charAt(0)) ? name.substring(0, dot) : name;
    }
}
