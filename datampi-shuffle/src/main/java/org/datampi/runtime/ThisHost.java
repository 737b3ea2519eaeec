package org.datampi.runtime;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** The host this process runs on, as it calls itself: what errors name and what O tasks' preferred hosts match. */
final class ThisHost {
    static final String NAME = lookUp();

    private ThisHost() {
    }

    private static String lookUp() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            String name = System.getenv("HOSTNAME");
            return name != null ? name : "localhost";
        }
    }
}
