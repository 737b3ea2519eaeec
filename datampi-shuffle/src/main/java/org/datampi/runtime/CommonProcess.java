package org.datampi.runtime;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import org.datampi.mpid.Comm;
import org.datampi.mpid.MPI_D;
import org.datampi.mpid.RankProgram;
import org.datampi.mpid.StageRuntime;
import org.datampi.mpid.StagedProgram;
import org.datampi.mpid.StageTaskException;
import org.datampi.mpid.TaskContext;
import org.datampi.mpid.TaskProgram;
import org.datampi.shuffle.ShuffleSettings;
import org.datampi.shuffle.spill.SpillFiles;
import org.datampi.status.JobProgress;
import org.datampi.status.RankStatus;
import org.datampi.status.StatusSender;
import org.datampi.transport.Mpi;
import org.datampi.transport.MpiImplementation;
import org.datampi.transport.MpiTransport;
import org.datampi.transport.ThreadLevel;
import org.datampi.transport.Transport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process that mpidrun starts on every rank (DataMPI's CommonProcess). For each job it makes the job's program
 * ({@link RankProgram}, by the class mpidrun was given: {@link ProgramClass}), sets the job up on every rank together
 * ({@link RankProgram#setUpJob}), runs it and closes it. A {@link TaskProgram} runs once per scheduled task: O tasks
 * as rank 0 hands them out, then, once every process has sent all its data, the A tasks it owns. Data for an A task
 * flows into its process while the O tasks still run. A {@link StagedProgram} (a DAG of stages) runs once per job on
 * every rank, with the same shuffle under it ({@link StageRuntime}).
 *
 * <p>With {@code --serve} the processes stay up and run one job after another ({@link JobQueue}): a caller that runs
 * many short jobs, like a Hive session, pays for mpirun, the JVMs and MPI_Init once instead of once per job.
 *
 * <p>An instance is one job on one rank ({@link #run}), over a {@link Transport} and with a {@link JobFailure}: MPI's
 * and MPI_Abort in a rank process; a test's in-memory transport and a recorder in {@code CommonProcessTest}.
 */
public final class CommonProcess {
    /** Set before logging starts, so that every rank writes its own log file (see conf/datampi-log4j2.properties). */
    static final String RANK_PROPERTY = "datampi.rank";
    private static final String[] LAUNCHER_RANK_VARIABLES = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"};

    private final LaunchArguments launch;
    private final ProgramClass programClass;
    private final int rank;
    private final int size;
    private final String host;
    /** Each rank's host, on rank 0 (its O-task scheduler places tasks by them). */
    private final Optional<List<String>> hostOfRank;
    private final ShuffleSettings settings;
    private final Transport transport;
    /** The MPI library, for the job's first log line. */
    private final String mpiLibrary;
    private final JobFailure abort;
    private final StatusSender status;
    private final Logger log = LoggerFactory.getLogger(CommonProcess.class);

    CommonProcess(LaunchArguments launch, ProgramClass programClass, int rank, int size, String host,
            Optional<List<String>> hostOfRank, ShuffleSettings settings, Transport transport, String mpiLibrary,
            JobFailure abort, StatusSender status) {
        this.launch = requireNonNull(launch, "launch is null");
        this.programClass = requireNonNull(programClass, "programClass is null");
        this.rank = rank;
        this.size = size;
        this.host = requireNonNull(host, "host is null");
        this.hostOfRank = requireNonNull(hostOfRank, "hostOfRank is null");
        this.settings = requireNonNull(settings, "settings is null");
        this.transport = requireNonNull(transport, "transport is null");
        this.mpiLibrary = requireNonNull(mpiLibrary, "mpiLibrary is null");
        this.abort = requireNonNull(abort, "abort is null");
        this.status = requireNonNull(status, "status is null");
    }

    public static void main(String[] args) {
        System.setProperty(RANK_PROPERTY, launcherRank());
        boolean serve = args.length > 0 && args[0].equals(JobQueue.SERVE_OPTION);
        Optional<LaunchArguments> launch;
        ShuffleSettings settings;
        StatusSender status;
        int idleSeconds;
        try {
            idleSeconds = serve ? JobQueue.idleSeconds(args) : 0;
            launch = serve ? Optional.empty() : Optional.of(LaunchArguments.parse(args));
            settings = ShuffleSettings.fromSystemProperties();
            status = StatusSender.fromEnvironment(System.getenv());
            if (launch.isPresent()) {
                ProgramClass.forName(launch.get().mainClass());
            }
        } catch (IllegalArgumentException e) {
            // Every rank fails the same way before MPI starts; the launcher reports the exit code.
            System.err.println("datampi: " + e.getMessage());
            reportStartUpFailure(e);
            System.exit(2);
            return;
        }
        // Once per rank process, before its first job: what ranks of this host that are gone left behind.
        RankDirectory.sweep(settings.localDir());
        ThreadLevel provided = Mpi.initThread(ThreadLevel.MULTIPLE);
        int rank = Mpi.rank();
        int size = Mpi.size();
        JobAbort abort = new JobAbort(rank, status);
        if (provided != ThreadLevel.MULTIPLE) {
            abort.abort(new IllegalStateException("MPI provides thread level " + provided
                    + "; datampi needs MULTIPLE (rebuild the MPI library with thread support)"), () -> { });
        }
        Optional<List<String>> hostOfRank = RankHosts.gather(rank, size, ThisHost.NAME);
        try {
            // The group is up: the job runner learns where each rank runs and logs (on its own host).
            hostOfRank.ifPresent(hosts -> status.send(new RankStatus.GroupUp(hosts,
                    System.getProperty(RankLog.LOG_DIR_PROPERTY, ""))));
        } catch (RuntimeException e) {
            abort.abort(e, () -> { });
        }
        if (launch.isPresent()) {
            runJob(launch.get(), rank, size, hostOfRank, settings, abort, status);
        } else {
            JobQueue jobs = new JobQueue(rank, size, idleSeconds, abort, status);
            for (Optional<LaunchArguments> next = jobs.next(); next.isPresent(); next = jobs.next()) {
                runJob(next.get(), rank, size, hostOfRank, settings, abort, status);
                Mpi.barrier();
                jobs.done(next.get());
            }
        }
        Mpi.barrier();
        status.close();
        Mpi.finalizeMpi();
    }

    /** Tells the job runner, if there is one and its address is valid, why this rank cannot start. */
    private static void reportStartUpFailure(IllegalArgumentException cause) {
        try (StatusSender status = StatusSender.fromEnvironment(System.getenv())) {
            status.send(new RankStatus.RankFailed(Integer.parseInt(launcherRank()), ThisHost.NAME, "start-up",
                    cause.getMessage(), false, Optional.empty(), List.of()));
        } catch (RuntimeException e) {
            System.err.println("datampi: cannot tell the job runner: " + e.getMessage());
        }
    }

    private static void runJob(LaunchArguments launch, int rank, int size, Optional<List<String>> hostOfRank,
            ShuffleSettings settings, JobFailure abort, StatusSender status) {
        ProgramClass program;
        try {
            program = ProgramClass.forName(launch.mainClass());
        } catch (IllegalArgumentException e) {
            abort.abort(e, () -> { });
            return;
        }
        String library = MpiImplementation.current().libraryTag() + ": "
                + Mpi.libraryVersion().lines().findFirst().orElse("");
        new CommonProcess(launch, program, rank, size, ThisHost.NAME, hostOfRank, settings, MpiTransport.INSTANCE,
                library, abort, status).run();
    }

    /**
     * Runs the job on this rank: its program made, set up, its tasks or stages run, closed; the rank's directory of
     * the job removed. The first failure goes to the {@link JobFailure} (in a rank process, it does not return).
     */
    void run() {
        RankProgram program;
        RankDirectory directory;
        try {
            program = programClass.newProgram();
            directory = RankDirectory.claim(settings.localDir(), launch.jobId(), rank);
        } catch (RuntimeException e) {
            abort.abort(e, () -> { });
            return;
        }
        Path localDir = directory.path();
        SpillFiles spillFiles = new SpillFiles(localDir);
        // However the process ends (a signal: mpirun stopping the job, Slurm ending it), its directory goes.
        Runnable leave = () -> leave(spillFiles, localDir);
        Thread spillCleanup = new Thread(leave, "datampi-spill-cleanup");
        Runtime.getRuntime().addShutdownHook(spillCleanup);
        boolean staged = program instanceof StagedProgram;
        Optional<TaskScheduler> scheduler = Optional.empty();
        if (rank == 0) {
            Duration localityWait = Duration.ofSeconds(settings.localityWaitSeconds());
            scheduler = Optional.of(staged ? new StageScheduler(this::report, hostOfRank.orElseThrow(), localityWait)
                    : new OTaskScheduler(launch.oTasks(), launch.aTasks(), this::report, hostOfRank.orElseThrow(),
                            localityWait));
        }
        RankShuffle shuffle = new RankShuffle(transport, launch.jobId(), rank, size, host, settings, spillFiles, scheduler,
                failure -> abort.abort(failure, leave));
        log.info("Rank {} of {} starts job {} ({}): {} O tasks, {} A tasks, {}, heap {}", rank, size, launch.jobId(),
                mpiLibrary, launch.oTasks(), launch.aTasks(), settings, heapOption());
        try {
            shuffle.start();
            setUpJob(program, localDir.resolve("job-files"), scheduler, shuffle.engine()::checkHealthy);
            // Rank 0's preferences are in: the other ranks' requests, which may have come first, get tasks now.
            scheduler.ifPresent(TaskScheduler::open);
            String tasksRun;
            if (staged) {
                runStages((StagedProgram) program, new RankStages(rank, size, host, localDir, shuffle, settings,
                        scheduler.map(RankJobSetup::stages)));
                tasksRun = "its stages";
            } else {
                int oTasksRun = runOTasks((TaskProgram) program, shuffle);
                shuffle.finishSending(TaskScheduler.O_STAGE);
                shuffle.awaitAllData(TaskScheduler.O_STAGE);
                int aTasksRun = runATasks((TaskProgram) program, shuffle);
                if (scheduler.orElse(null) instanceof OTaskScheduler oTasks) {
                    oTasks.awaitATasks(shuffle.engine()::checkHealthy);
                }
                tasksRun = oTasksRun + " O tasks, " + aTasksRun + " A tasks";
            }
            scheduler.ifPresent(tasks -> log.info("Tasks on a host they preferred: {}", tasks.locality()));
            shuffle.signOff();
            shuffle.engine().drainAndStop();
            log.info("Rank {} done: {}, {} blocks ({} bytes) sent, {} spills ({} bytes), "
                    + "{} merge passes, at most {} spill files open at once, peak send blocks {} of {} bytes, "
                    + "peak receive cache {} of {} bytes, peak RSS {} bytes", rank, tasksRun,
                    shuffle.engine().blocksSent(), shuffle.engine().bytesSent(),
                    shuffle.receiveBuffers().spillCount(), shuffle.receiveBuffers().spilledBytes(),
                    shuffle.receiveBuffers().mergePasses(), spillFiles.mostOpenAtOnce(),
                    shuffle.memory().peakSendBytes(), shuffle.memory().sendBudget(),
                    shuffle.memory().peakReceiveBytes(), shuffle.memory().receiveBudget(),
                    ProcessMemory.peakResidentBytes());
        } catch (Throwable t) {
            abort.abort(t, leave);
        }
        close(program);
        // No spill may still write once the directory goes.
        shuffle.receiveBuffers().close();
        leave.run();
        directory.close();
        Runtime.getRuntime().removeShutdownHook(spillCleanup);
    }

    /**
     * Removes the rank's directory (SPILL_FILES' directory, LOCAL_DIR) and the job's directory on this host when this
     * was its last rank here (another rank's directory in it keeps it).
     */
    private void leave(SpillFiles spillFiles, Path localDir) {
        try {
            spillFiles.close();
        } finally {
            try {
                Files.deleteIfExists(localDir.getParent());
            } catch (IOException e) {
                log.debug("Job directory {} is still in use by another rank on this host", localDir.getParent());
            }
        }
    }

    /** The JVM's -Xmx as mpidrun gave it (its --heap), for the rank's log: what an admin sized the rank to. */
    private static String heapOption() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(argument -> argument.startsWith("-Xmx")).reduce((first, last) -> last)
                .orElse("the JVM's default");
    }

    /** Rank 0's report of the job's progress: to the job runner, and a line on the console for people. */
    private void report(JobProgress progress) {
        System.err.println(progress.line());
        System.err.flush();
        status.send(progress);
    }

    private void setUpJob(RankProgram program, Path jobFiles, Optional<? extends TaskScheduler> scheduler,
            Runnable healthCheck) {
        long start = System.nanoTime();
        try {
            program.setUpJob(programArguments(),
                    new RankJobSetup(rank, size, host, jobFiles, scheduler, healthCheck));
        } catch (Throwable e) {
            throw new TaskFailedException("Job set-up", e);
        }
        log.info("Job set-up finished in {} ms", (System.nanoTime() - start) / 1_000_000);
    }

    /** The job has ended on this rank: its program lets go of what it held (a failure to is logged, not fatal). */
    private void close(RankProgram program) {
        try {
            program.close();
        } catch (Exception e) {
            log.warn("Closing {} after job {} failed", programClass, launch.jobId(), e);
        }
    }

    private int runOTasks(TaskProgram program, RankShuffle shuffle) {
        int run = 0;
        for (int task = shuffle.requestTask(TaskScheduler.O_STAGE, 0); task >= 0;
                task = shuffle.requestTask(TaskScheduler.O_STAGE, 1)) {
            runTask(program, new OTaskContext(new Comm(Comm.Side.O, task, launch.oTasks()), launch.aTasks(), shuffle,
                    settings));
            run++;
        }
        return run;
    }

    private int runATasks(TaskProgram program, RankShuffle shuffle) {
        int run = 0;
        for (int task = rank; task < launch.aTasks(); task += size) {
            runTask(program, new ATaskContext(new Comm(Comm.Side.A, task, launch.aTasks()), shuffle));
            shuffle.taskDone(TaskScheduler.A_STAGE);
            run++;
        }
        return run;
    }

    /** A staged program's stages on this rank; the program names the stage and task of a failure. */
    private void runStages(StagedProgram program, StageRuntime stages) {
        long start = System.nanoTime();
        try {
            program.runStages(programArguments(), stages);
        } catch (StageTaskException task) {
            throw new TaskFailedException(task.task(), task.getCause());
        } catch (Throwable e) {
            throw new TaskFailedException("Rank " + rank + "'s stages", e);
        }
        log.info("Stages finished in {} ms", (System.nanoTime() - start) / 1_000_000);
    }

    /** The program's arguments, as an array of its own for each call (the program may change it). */
    private String[] programArguments() {
        return launch.programArguments().toArray(String[]::new);
    }

    private void runTask(TaskProgram program, TaskContext task) {
        String name = task.comm().side() + " task " + task.comm().rank();
        long start = System.nanoTime();
        MPI_D.bind(task);
        try {
            program.runTask(programArguments());
            task.finish();
        } catch (Throwable e) {
            throw new TaskFailedException(name, e);
        } finally {
            MPI_D.unbind();
        }
        log.info("{} finished in {} ms", name, (System.nanoTime() - start) / 1_000_000);
    }

    private static String launcherRank() {
        for (String variable : LAUNCHER_RANK_VARIABLES) {
            String value = System.getenv(variable);
            if (value != null) {
                return value;
            }
        }
        return "0";
    }
}
