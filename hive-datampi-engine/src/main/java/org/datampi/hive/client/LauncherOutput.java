package org.datampi.hive.client;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What mpirun printed before it exited without a rank's own report, made into the cause Hive's FAILED line carries.
 * Open MPI explains a launch that failed in help messages between rules of dashes: first the cause (a daemon that
 * could not connect back, with its host; an interface a host does not have), then the consequences ("ORTE was
 * unable to reliably start one or more daemons" and its generic advice). The first messages say the most, so the
 * cause is they, each on one line. Output without such messages (Hydra's) gives its last lines.
 */
final class LauncherOutput {
    private static final Pattern RULE = Pattern.compile("^-{20,}$");
    private static final int MESSAGES = 2;
    private static final int PLAIN_LINES = 10;

    private LauncherOutput() {
    }

    /** The cause in mpirun's last lines, one line; the lines exclude SLF4J's warnings. */
    static String cause(List<String> lines) {
        List<String> messages = new ArrayList<>();
        List<String> plain = new ArrayList<>();
        StringBuilder message = null;
        for (String line : lines) {
            if (line.startsWith("SLF4J:")) {
                continue;
            }
            if (RULE.matcher(line.trim()).matches()) {
                if (message == null) {
                    message = new StringBuilder();
                } else {
                    if (!message.isEmpty()) {
                        messages.add(message.toString());
                    }
                    message = null;
                }
            } else if (message != null) {
                String words = line.trim().replaceAll("\\s+", " ");
                if (!words.isEmpty()) {
                    message.append(message.isEmpty() ? "" : " ").append(words);
                }
            } else if (!line.isBlank()) {
                plain.add(line.trim());
            }
        }
        if (messages.isEmpty()) {
            return String.join(" | ", plain.subList(Math.max(0, plain.size() - PLAIN_LINES), plain.size()));
        }
        return String.join(" | ", messages.subList(0, Math.min(MESSAGES, messages.size())));
    }
}
