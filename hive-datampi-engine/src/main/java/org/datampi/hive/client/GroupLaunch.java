package org.datampi.hive.client;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * How a group of ranks is started: the mpidrun command, and whether its ranks may run on other hosts (a hostfile or a
 * Slurm allocation, {@link org.datampi.runtime.Placement}), which decides where the group's status channel listens
 * ({@link org.datampi.status.StatusReceiver}). Groups started alike can run each other's stages.
 */
record GroupLaunch(List<String> command, boolean acrossHosts) {
    GroupLaunch {
        command = List.copyOf(requireNonNull(command, "command is null"));
    }
}
