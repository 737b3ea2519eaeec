package org.datampi.bench.harness;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A runner's command line: {@code --name value} pairs, where {@code --hiveconf KEY=VALUE} may repeat. A missing
 * or unknown option is an error that names it, with the usage.
 */
public final class RunnerOptions {
    private final String usage;
    private final Map<String, String> values;
    private final Map<String, String> hiveconf;

    private RunnerOptions(String usage, Map<String, String> values, Map<String, String> hiveconf) {
        this.usage = usage;
        this.values = values;
        this.hiveconf = hiveconf;
    }

    /** Parses args; names lists every option the runner knows besides --hiveconf, defaults their defaults. */
    public static RunnerOptions parse(String usage, String[] args, List<String> names, Map<String, String> defaults) {
        Map<String, String> values = new HashMap<>(defaults);
        Map<String, String> hiveconf = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + " needs a value. Usage: " + usage);
            }
            if (name.equals("--hiveconf")) {
                String[] setting = args[i + 1].split("=", 2);
                if (setting.length != 2) {
                    throw new IllegalArgumentException("--hiveconf needs KEY=VALUE, got '" + args[i + 1] + "'");
                }
                hiveconf.put(setting[0], setting[1]);
            } else if (names.contains(name)) {
                values.put(name, args[i + 1]);
            } else {
                throw new IllegalArgumentException("Unknown option '" + name + "'. Usage: " + usage);
            }
        }
        return new RunnerOptions(usage, values, hiveconf);
    }

    /** The value of a required option. */
    public String get(String name) {
        String value = values.get(name);
        if (value == null) {
            throw new IllegalArgumentException("Missing " + name + ". Usage: " + usage);
        }
        return value;
    }

    /** The value of an optional option without a default. */
    public Optional<String> find(String name) {
        return Optional.ofNullable(values.get(name));
    }

    public int getInt(String name) {
        try {
            return Integer.parseInt(get(name));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, got '" + get(name) + "'");
        }
    }

    /** The --hiveconf settings, in the order given. */
    public Map<String, String> hiveconf() {
        return new LinkedHashMap<>(hiveconf);
    }

}
