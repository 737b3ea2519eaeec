package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A job's progress as rank 0 prints it on its console whenever a task starts or ends, which the launcher forwards to
 * whoever started the job, and how that reader reads it back: tasks handed out (O tasks) and tasks placed by the
 * program (A tasks) done of all, and for a staged job each stage's tasks:
 * {@code datampi: O tasks 3/4 done, A tasks 0/2 done (50%); stages 3(+1)/4 0/2}.
 *
 * @param stages a staged job's stages in order; empty for a common mode job
 */
public record JobProgress(int oTasksDone, int oTasks, int aTasksDone, int aTasks, List<Stage> stages) {
    private static final String START = "datampi: O tasks ";
    private static final Pattern LINE = Pattern.compile(Pattern.quote(START) + "(\\d+)/(\\d+) done, A tasks "
            + "(\\d+)/(\\d+) done \\(\\d+%\\)(?:; stages ((?:\\d+(?:\\(\\+\\d+\\))?/\\d+ ?)*))?");
    private static final Pattern STAGE = Pattern.compile("(\\d+)(?:\\(\\+(\\d+)\\))?/(\\d+)");

    /** Before the first report: nothing done. */
    public static final JobProgress NONE = new JobProgress(0, 0, 0, 0, List.of());

    /**
     * One stage's tasks.
     *
     * @param running tasks started and not done; rank 0 sees this only for the stages whose tasks it hands out (0
     *     for the others)
     */
    public record Stage(int done, int running, int tasks) {
        @Override
        public String toString() {
            return done + (running > 0 ? "(+" + running + ")" : "") + "/" + tasks;
        }
    }

    public JobProgress {
        stages = List.copyOf(requireNonNull(stages, "stages is null"));
    }

    /** The share of O tasks done (1 when there are none). */
    public float oShare() {
        return oTasks == 0 ? 1 : (float) oTasksDone / oTasks;
    }

    /** The share of A tasks done (1 when there are none). */
    public float aShare() {
        return aTasks == 0 ? 1 : (float) aTasksDone / aTasks;
    }

    /** The console line. */
    String line() {
        int total = Math.max(1, oTasks + aTasks);
        String line = String.format(Locale.ROOT, "%s%d/%d done, A tasks %d/%d done (%d%%)", START, oTasksDone, oTasks,
                aTasksDone, aTasks, 100 * (oTasksDone + aTasksDone) / total);
        return stages.isEmpty() ? line
                : line + "; stages " + stages.stream().map(Stage::toString).collect(Collectors.joining(" "));
    }

    /** The progress a console line reports; empty for other lines. */
    public static Optional<JobProgress> parse(String line) {
        Matcher matcher = LINE.matcher(line);
        if (!matcher.find()) {
            return Optional.empty();
        }
        List<Stage> stages = new ArrayList<>();
        if (matcher.group(5) != null) {
            Matcher stage = STAGE.matcher(matcher.group(5));
            while (stage.find()) {
                int running = stage.group(2) == null ? 0 : Integer.parseInt(stage.group(2));
                stages.add(new Stage(Integer.parseInt(stage.group(1)), running, Integer.parseInt(stage.group(3))));
            }
        }
        return Optional.of(new JobProgress(number(matcher, 1), number(matcher, 2), number(matcher, 3),
                number(matcher, 4), stages));
    }

    private static int number(Matcher matcher, int group) {
        return Integer.parseInt(matcher.group(group));
    }
}
