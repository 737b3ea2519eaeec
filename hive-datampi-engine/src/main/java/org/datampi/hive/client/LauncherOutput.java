package org.datampi.hive.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.datampi.status.RankStatus;

/**
 * What mpirun printed before it exited without a rank's report on the status channel, made into the cause Hive's
 * FAILED line carries. A rank that could not reach the job runner still printed its report's headline: that is the
 * cause. Otherwise no rank had a word to say (killed, out of heap, its host lost, never started), and Open MPI explains
 * it in help messages between rules of dashes: first the cause (a daemon that could not connect back, with its host;
 * an interface a host does not have), then the consequences ("ORTE was unable to reliably start one or more daemons"
 * and its generic advice). The first messages say the most, so the cause is they, each on one line, after the last
 * lines printed outside any message (a rank's JVM that ended on its own: "Terminating due to
 * java.lang.OutOfMemoryError: Java heap space"; Hydra's errors, which have no rules). The launcher's and the ranks'
 * other lines ("mpidrun: ...", "datampi: ...": progress, where the logs are) are the cause only when nothing else was
 * said.
 */
final class LauncherOutput {
    private static final Pattern RULE = Pattern.compile("^-{20,}$");
    private static final int MESSAGES = 2;
    private static final int PLAIN_LINES = 5;
    /** Open MPI 4's line when a rank died of a signal ("mpirun noticed ...": Debian's says mpirun.openmpi). */
    private static final Pattern KILLED_RANK = Pattern.compile("noticed that process rank (\\d+) with PID \\d+ on node "
            + "(\\S+) exited on signal (\\d+) \\(([^)]+)\\)");
    /** Open MPI 4's message when mpirun lost a host's daemon: the remote daemon's node is the lost host. */
    private static final Pattern LOST_DAEMON = Pattern.compile("lost communication with a remote daemon\\. .*?"
            + "Remote daemon ?: \\[\\[\\d+,\\d+\\],\\d+\\] on node (\\S+)");

    private LauncherOutput() {
    }

    /**
     * The cause in mpirun's last lines, one line; SLF4J's warnings are left out. Where Open MPI names a rank killed
     * by a signal or a host whose daemon it lost, that comes first, in a sentence of ours: its own messages about a
     * lost peer name the hosts that noticed, not the one that was lost.
     */
    static String cause(List<String> lines) {
        Optional<String> rankReport = lines.stream().filter(line -> line.startsWith(RankStatus.RankFailed
                .HEADLINE_START)).findFirst();
        if (rankReport.isPresent()) {
            return rankReport.get();
        }
        String launcherCause = launcherCause(lines);
        Optional<String> lost = lostRankOrHost(String.join(" ", lines).replaceAll("\\s+", " "));
        return lost.map(lead -> lead + " | " + launcherCause).orElse(launcherCause);
    }

    /** "rank 4 on dmp3 ended by signal 9 (Killed)", or "lost Open MPI's daemon on dmp3 (...)", from mpirun's words. */
    static Optional<String> lostRankOrHost(String text) {
        Matcher killed = KILLED_RANK.matcher(text);
        if (killed.find()) {
            return Optional.of("rank " + killed.group(1) + " on " + killed.group(2) + " ended by signal "
                    + killed.group(3) + " (" + killed.group(4) + ")");
        }
        Matcher daemon = LOST_DAEMON.matcher(text);
        if (daemon.find()) {
            return Optional.of("lost Open MPI's daemon on " + daemon.group(1) + " (the host, its network or the daemon "
                    + "is down)");
        }
        return Optional.empty();
    }

    private static String launcherCause(List<String> lines) {
        List<String> messages = new ArrayList<>();
        List<String> plain = new ArrayList<>();
        List<String> reports = new ArrayList<>();
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
            } else if (line.startsWith("mpidrun: ") || line.startsWith("datampi: ")) {
                reports.add(line.trim());
            } else if (!line.isBlank()) {
                plain.add(line.trim());
            }
        }
        List<String> cause = new ArrayList<>(last(plain, PLAIN_LINES));
        cause.addAll(messages.subList(0, Math.min(MESSAGES, messages.size())));
        return String.join(" | ", cause.isEmpty() ? last(reports, PLAIN_LINES) : cause);
    }

    private static List<String> last(List<String> lines, int count) {
        return lines.subList(Math.max(0, lines.size() - count), lines.size());
    }
}
