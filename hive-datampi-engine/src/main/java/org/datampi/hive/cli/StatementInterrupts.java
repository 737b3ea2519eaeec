package org.datampi.hive.cli;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.hive.common.HiveInterruptUtils;
import org.apache.hadoop.hive.ql.exec.mr.HadoopJobExecHelper;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) while a statement runs, the way Hive's CLI takes it: the first cancels the statement (its running
 * stages are killed through Hive's own list of running jobs, which stops their ranks now, and the statement fails
 * with nothing of it committed); a second ends the shell (exit code 130; Hive's shutdown hook kills what still runs).
 * Between statements SIGINT keeps the handling it had before.
 *
 * <p>Installed with {@code sun.misc.Signal} (module jdk.unsupported), as Hive's CliDriver does. A shell started with
 * SIGINT ignored (a script's background job) keeps ignoring it: the JVM does not take a signal ignored at its start.
 */
final class StatementInterrupts implements AutoCloseable {
    private static final Signal INTERRUPT = new Signal("INT");
    static final int EXIT_CODE = 130;

    private final PrintStream console;
    private final AtomicInteger presses = new AtomicInteger();
    private final SignalHandler previous;

    private StatementInterrupts(PrintStream console) {
        this.console = requireNonNull(console, "console is null");
        this.previous = Signal.handle(INTERRUPT, signal -> interrupted());
    }

    /** Takes SIGINT until {@link #close()}: for the statement about to run. */
    static StatementInterrupts whileRunning(PrintStream console) {
        return new StatementInterrupts(console);
    }

    private void interrupted() {
        if (presses.incrementAndGet() == 1) {
            console.println("Interrupting... Be patient, this might take some time.");
            console.println("Press Ctrl+C again to kill JVM");
            HiveInterruptUtils.interrupt();
            HadoopJobExecHelper.killRunningJobs();
        } else {
            console.println("Exiting the JVM");
            System.exit(EXIT_CODE);
        }
    }

    @Override
    public void close() {
        Signal.handle(INTERRUPT, previous);
    }
}
