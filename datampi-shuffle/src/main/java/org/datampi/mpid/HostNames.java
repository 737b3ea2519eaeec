package org.datampi.mpid;

import java.util.Locale;

/** How hosts compare when tasks prefer them: by short name, case-insensitive ("DMP2.cluster.local" is "dmp2"). */
public final class HostNames {
    private HostNames() {
    }

    /** The host's short name in lower case; an IP address stays whole. */
    public static String shortName(String host) {
        String name = host.toLowerCase(Locale.ROOT);
        int dot = name.indexOf('.');
        return dot > 0 && !Character.isDigit(name.charAt(0)) ? name.substring(0, dot) : name;
    }
}
