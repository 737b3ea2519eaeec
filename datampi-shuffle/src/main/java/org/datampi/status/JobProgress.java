package org.datampi.status;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A job's progress, which rank 0 reports whenever a task starts or ends, on the status channel to the job runner and
 * as a line on its console for whoever watches mpidrun: tasks handed out (O tasks) and tasks placed by the program
 * (A tasks) done of all, and for a staged job each stage's tasks:
 * {@code datampi: O tasks 3/4 done, A tasks 0/2 done (50%); stages 3(+1)/4 0/2}.
 *
 * @param stages a staged job's stages in order; empty for a common mode job
 */
public record JobProgress(int oTasksDone, int oTasks, int aTasksDone, int aTasks, List<Stage> stages)
        implements RankStatus {
    private static final String START = "datampi: O tasks ";

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

    /** The console line, for people: the job runner reads the record. */
    public String line() {
        int total = Math.max(1, oTasks + aTasks);
        String line = String.format(Locale.ROOT, "%s%d/%d done, A tasks %d/%d done (%d%%)", START, oTasksDone, oTasks,
                aTasksDone, aTasks, 100 * (oTasksDone + aTasksDone) / total);
        return stages.isEmpty() ? line
                : line + "; stages " + stages.stream().map(Stage::toString).collect(Collectors.joining(" "));
    }
}
