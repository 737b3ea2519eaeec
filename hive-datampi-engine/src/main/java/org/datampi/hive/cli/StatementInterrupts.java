package org.datampi.hive.cli;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.hive.common.HiveInterruptUtils;
import org.apache.hadoop.hive.ql.exec.mr.HadoopJobExecHelper;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) while a statement runs, the way Hive's CLI takes it: the first cancels the statement (its running
 * stages are killed through Hive's own list of running jobs, which stops their ranks now, and the statement fails
 * with nothing of it committed); a second ends the shell (exit code 130; Hive's shutdown hook kills what still runs).
 *
 * <p>SIGTERM and SIGHUP while a statement runs end the shell (exit code 143 and 129, as the JVM's own handling gives)
 * after saying why and cancelling the statement the same way; the first one only (a second waits for the exit). Inside
 * a Slurm job SIGTERM is how Slurm ends it ({@code scancel}, its time limit: to every process of a batch job; to
 * salloc's command when salloc was given {@code --kill-command}), and the console names the job's end rather than
 * leaving the user with the lost ranks Slurm stops at the same moment.
 *
 * <p>Between statements every signal keeps the handling it had before. Installed with {@code sun.misc.Signal} (module
 * jdk.unsupported), as Hive's CliDriver does. A shell started with a signal ignored (SIGINT in a script's background
 * job, SIGHUP under nohup) keeps ignoring it: the JVM does not take a signal ignored at its start.
 */
final class StatementInterrupts implements AutoCloseable {
    private static final Signal INTERRUPT = new Signal("INT");
    private static final Signal TERMINATE = new Signal("TERM");
    private static final Signal HANG_UP = new Signal("HUP");
    static final int EXIT_CODE = 130;
    private static final int SIGNAL_EXIT_BASE = 128;

    private final PrintStream console;
    private final AtomicInteger presses = new AtomicInteger();
    private final AtomicBoolean ending = new AtomicBoolean();
    private final SignalHandler previousInterrupt;
    private final SignalHandler previousTerminate;
    private final SignalHandler previousHangUp;

    private StatementInterrupts(PrintStream console) {
        this.console = requireNonNull(console, "console is null");
        this.previousInterrupt = Signal.handle(INTERRUPT, signal -> interrupted());
        SignalHandler terminate = null;
        try {
            terminate = Signal.handle(TERMINATE, this::ended);
            this.previousHangUp = Signal.handle(HANG_UP, this::ended);
        } catch (IllegalArgumentException e) {
            // The JVM keeps these signals for itself (-Xrs): give back what was taken, and fail as before.
            Signal.handle(INTERRUPT, previousInterrupt);
            if (terminate != null) {
                Signal.handle(TERMINATE, terminate);
            }
            throw e;
        }
        this.previousTerminate = terminate;
    }

    /** Takes SIGINT, SIGTERM and SIGHUP until {@link #close()}: for the statement about to run. */
    static StatementInterrupts whileRunning(PrintStream console) {
        return new StatementInterrupts(console);
    }

    private void interrupted() {
        if (presses.incrementAndGet() == 1) {
            console.println("Interrupting... Be patient, this might take some time.");
            console.println("Press Ctrl+C again to kill JVM");
            cancelStatement();
        } else {
            console.println("Exiting the JVM");
            System.exit(EXIT_CODE);
        }
    }

    private void ended(Signal signal) {
        if (!ending.compareAndSet(false, true)) {
            return;
        }
        console.println(endMessage(signal.getName(), System.getenv("SLURM_JOB_ID")));
        console.flush();
        cancelStatement();
        System.exit(SIGNAL_EXIT_BASE + signal.getNumber());
    }

    /** What the console says when SIGNAL (TERM, HUP) ends the shell, inside Slurm job SLURM_JOB_ID (null: none). */
    static String endMessage(String signal, String slurmJobId) {
        if (signal.equals(TERMINATE.getName()) && slurmJobId != null && !slurmJobId.isBlank()) {
            return "datampi: Slurm is ending job " + slurmJobId.trim() + " (SIG" + signal + ": scancel, or the job's "
                    + "time limit); the running statement is cancelled and the shell ends";
        }
        return "datampi: SIG" + signal + " received; the running statement is cancelled and the shell ends";
    }

    private static void cancelStatement() {
        HiveInterruptUtils.interrupt();
        HadoopJobExecHelper.killRunningJobs();
    }

    @Override
    public void close() {
        Signal.handle(INTERRUPT, previousInterrupt);
        Signal.handle(TERMINATE, previousTerminate);
        Signal.handle(HANG_UP, previousHangUp);
    }
}
