package org.datampi.runtime;

import java.io.PrintStream;

/**
 * Rank 0's scheduler of O tasks: a process that asks gets the next O task, so that an O task starts on a process
 * as soon as one is free (Hive's O tasks end at irregular times). It also counts finished O and A tasks and prints
 * the job's progress on the console.
 */
final class OTaskScheduler {
    private final int oTasks;
    private final int aTasks;
    private final PrintStream console;
    private int nextOTask;
    private int oTasksDone;
    private int aTasksDone;

    OTaskScheduler(int oTasks, int aTasks, PrintStream console) {
        this.oTasks = oTasks;
        this.aTasks = aTasks;
        this.console = console;
    }

    /** Returns the O task for a process that finished finishedTasks since it last asked, or -1 when none is left. */
    synchronized int grant(int finishedTasks) {
        if (nextOTask == 0 && oTasksDone == 0) {
            // The 0% line: the first O task starts now, so every rank is up (launchers time the start-up by it).
            report();
        }
        if (finishedTasks > 0) {
            oTasksDone += finishedTasks;
            report();
        }
        return nextOTask < oTasks ? nextOTask++ : -1;
    }

    synchronized void aTaskDone() {
        aTasksDone++;
        report();
        notifyAll();
    }

    /** Waits until every A task has finished, checking health between waits. */
    synchronized void awaitATasks(Runnable healthCheck) throws InterruptedException {
        while (aTasksDone < aTasks) {
            wait(100);
            healthCheck.run();
        }
    }

    private void report() {
        int total = oTasks + aTasks;
        console.printf("datampi: O tasks %d/%d done, A tasks %d/%d done (%d%%)%n", oTasksDone, oTasks, aTasksDone,
                aTasks, 100 * (oTasksDone + aTasksDone) / total);
        console.flush();
    }
}
