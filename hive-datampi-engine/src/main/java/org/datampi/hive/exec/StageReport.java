package org.datampi.hive.exec;

import java.util.function.Consumer;

import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.hive.ql.session.SessionState.LogHelper;
import org.datampi.hive.client.DataMPIJobRunner;

/**
 * What Hive's console shows after a datampi stage, a MapReduce-shaped stage or a DAG's vertex alike: where its
 * ranks logged and on which hosts, where its time went, what its counters tell, and when it failed the failing
 * rank's cause, which also becomes the task's exception (Hive appends it to its FAILED line).
 */
final class StageReport {
    private StageReport() {
    }

    /** DAG: a DAG stage, whose vertices overlap (its timeline has no O and A phases: StageTimeline#describeDag). */
    static void print(LogHelper console, String stage, String jobId, DataMPIJobRunner.JobOutcome outcome, boolean dag,
            boolean failed, long started, long ended, Consumer<HiveException> setException) {
        outcome.logDir().ifPresent(dir -> console.printInfo("datampi: rank logs in " + dir
                + outcome.rankHosts().map(hosts -> " (ranks " + hosts + ")").orElse("")));
        String timeline = dag ? outcome.timeline().describeDag(started, ended)
                : outcome.timeline().describe(started, ended);
        console.printInfo("datampi: " + stage + " " + jobId + " " + timeline);
        outcome.notes().forEach(note -> console.printInfo("datampi: " + stage + " " + note));
        if (failed) {
            outcome.failure().ifPresent(cause -> {
                console.printError(cause.startsWith("datampi: ") ? cause : "datampi: " + cause);
                setException.accept(new HiveException(cause));
            });
        }
    }
}
