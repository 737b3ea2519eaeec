package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An mpidrun hostfile: one host per line in Open MPI's form ({@code host slots=N}) or MPICH's ({@code host:N}); a host
 * without a count has one slot; blank lines and {@code #} comments are skipped. The one reader of the form: Hive's
 * side and bin/mpidrun read it through {@link Placement}, which also writes MPICH's form for mpidrun.
 *
 * @param path where it was read from, for messages
 * @param hosts the hosts in the file's order
 */
public record Hostfile(Path path, List<Host> hosts) {
    public record Host(String name, int slots) {
        public Host {
            requireNonNull(name, "name is null");
        }
    }

    public Hostfile {
        requireNonNull(path, "path is null");
        hosts = List.copyOf(hosts);
    }

    /** The hosts in MPICH's form, {@code host:N}, which Hydra's {@code -f} takes. */
    public List<String> mpichLines() {
        return hosts.stream().map(host -> host.name() + ":" + host.slots()).toList();
    }

    public int slots() {
        return hosts.stream().mapToInt(Host::slots).sum();
    }

    /** Reads the hostfile; a missing, unreadable, empty or malformed file is an error naming it and the line. */
    public static Hostfile read(Path path) {
        List<String> lines;
        try {
            lines = Files.readAllLines(path);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the hostfile " + path + ": " + e.getMessage(), e);
        }
        List<Host> hosts = new ArrayList<>();
        for (int number = 1; number <= lines.size(); number++) {
            String line = lines.get(number - 1).replaceFirst("#.*", "").trim();
            if (!line.isEmpty()) {
                hosts.add(host(path, number, line));
            }
        }
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("The hostfile " + path + " lists no hosts");
        }
        return new Hostfile(path, hosts);
    }

    private static Host host(Path path, int number, String line) {
        String[] words = line.split("\\s+");
        String name = words[0];
        String slots = "1";
        int colon = name.indexOf(':');
        if (colon >= 0) {
            slots = name.substring(colon + 1);
            name = name.substring(0, colon);
        }
        for (int i = 1; i < words.length; i++) {
            if (words[i].startsWith("slots=")) {
                slots = words[i].substring("slots=".length());
            }
        }
        try {
            int count = Integer.parseInt(slots);
            if (count >= 1 && !name.isEmpty()) {
                return new Host(name, count);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("The hostfile " + path + " line " + number + " is not 'host slots=N' or "
                + "'host:N' with N >= 1: '" + line + "'");
    }
}
