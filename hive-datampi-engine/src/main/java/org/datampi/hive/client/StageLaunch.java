package org.datampi.hive.client;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.apache.hadoop.mapred.JobConf;
import org.datampi.hive.conf.DataMPISettings;
import org.datampi.hive.conf.JobPlan;
import org.datampi.runtime.Placement;
import org.datampi.shuffle.ShuffleSettings;

/**
 * How a stage's job reaches the ranks, either plan shape: the mpidrun command of the stage's launch settings (this
 * checkout's bin/mpidrun, the engine's jar and classpath), the group that takes it ({@link RankPools}), and the
 * job's deadlines.
 */
final class StageLaunch {
    private StageLaunch() {
    }

    /**
     * Gives a job to the session's ranks (warm or new, by hive.datampi.reuse.ranks): PROGRAM (a class of the ranks'
     * programs, org.datampi.mpid.RankProgram) with its ARGUMENTS, in O and A tasks by the plan, under the job's start
     * and stage deadlines. While every group this JVM may run is busy (hive.datampi.groups.max), or stages served
     * before it wait for one (by SIZE, as hive.datampi.queue.order says), the job waits, saying so with SAY (Hive's
     * console), until STOPPED holds or the stage's deadline passes.
     */
    static MpidrunJob start(JobConf job, JobPlan plan, StageSize size, String jobId, String program,
            List<String> arguments, Consumer<String> say, BooleanSupplier stopped) {
        List<String> jobArguments = new ArrayList<>(List.of("--job-id", jobId, "-O", Integer.toString(plan.oTasks()),
                "-A", Integer.toString(plan.aTasks()), program));
        jobArguments.addAll(arguments);
        long startTimeout = DataMPISettings.startTimeoutSeconds(job);
        long stageTimeout = DataMPISettings.stageTimeoutSeconds(job);
        int groups = DataMPISettings.groupsMax(job);
        Placement placement = Placement.of(job.getTrimmed(DataMPISettings.HOSTFILE, ""));
        StageSize queuedAs = DataMPISettings.QueueOrder.of(job) == DataMPISettings.QueueOrder.SMALLEST
                ? size : StageSize.UNKNOWN;
        MpidrunJob process = RankPools.submit(groupLaunch(job, plan, placement), reuseRanks(job), groups, jobId,
                jobArguments, queuedAs, ahead -> say.accept(waits(jobId, groups, ahead, queuedAs)), stopped,
                stageTimeout);
        process.failUnlessStartedWithin(startTimeout, DataMPISettings.START_TIMEOUT + "=" + startTimeout
                + (placement.acrossHosts() ? "; can every host be reached (" + placement.describe() + ")?" : ""));
        process.failUnlessEndedWithin(stageTimeout, DataMPISettings.STAGE_TIMEOUT + "=" + stageTimeout);
        return process;
    }

    /**
     * The console's line for a stage that waits for a group: why, how many stages wait ahead of it, and the size the
     * queue ranks it by.
     */
    private static String waits(String jobId, int groups, int ahead, StageSize size) {
        return "datampi: job " + jobId + " waits for a free group of ranks: " + RankPools.allBusy(groups)
                + (ahead == 0 ? "" : "; " + ahead + (ahead == 1 ? " stage waits" : " stages wait") + " ahead of it now")
                + (size.known() ? " (queued as " + size + " by Hive's estimate, smallest first)" : "");
    }

    /** mpidrun --serve with the stage's launch settings: stages with the same settings can share the ranks. */
    private static GroupLaunch groupLaunch(JobConf job, JobPlan plan, Placement placement) {
        Path home = datampiHome();
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/mpidrun").toString(), "-mode", "COM",
                "--serve", "--idle-seconds", Integer.toString(RankPool.IDLE_SECONDS), "-np",
                Integer.toString(plan.slots())));
        // Always given: the heap DagBuilder sized Tez's task memory by (mpidrun's own default is for runs by hand).
        command.addAll(List.of("--heap", DataMPISettings.heapMegabytes(job, placement) + "m"));
        addIfSet(command, "--mpi", job.get(DataMPISettings.MPI));
        addIfSet(command, "-f", job.get(DataMPISettings.HOSTFILE));
        if (JobPlan.oversubscribe(job)) {
            command.add("--oversubscribe");
        }
        if (job.get(DataMPISettings.MEM_USED_PERCENT) != null) {
            command.addAll(List.of("-D", "mpid.memusedpercent=" + job.get(DataMPISettings.MEM_USED_PERCENT).trim()));
        }
        if (job.get(DataMPISettings.SEND_QUEUE) != null) {
            command.addAll(List.of("-D", "mpid.sendqueue=" + job.get(DataMPISettings.SEND_QUEUE).trim()));
        }
        // Only a wait or a block size other than the ranks' default: an explicit default (or a blank) must not make
        // the launch differ from the default's and replace a warm group for nothing.
        int localityWait = DataMPISettings.localityWaitSeconds(job);
        if (localityWait != ShuffleSettings.DEFAULT_LOCALITY_WAIT) {
            command.addAll(List.of("-D", ShuffleSettings.LOCALITY_WAIT + "=" + localityWait));
        }
        int blockSize = DataMPISettings.blockSize(job);
        if (blockSize != ShuffleSettings.DEFAULT_BLOCK_SIZE) {
            command.addAll(List.of("-D", ShuffleSettings.BLOCK_SIZE + "=" + blockSize));
        }
        command.addAll(List.of("--classpath", engineClasspath(home), "-jar", engineJar().toString()));
        return new GroupLaunch(command, placement.acrossHosts());
    }

    private static boolean reuseRanks(JobConf job) {
        return DataMPISettings.flag(job, DataMPISettings.REUSE_RANKS, true);
    }

    private static void addIfSet(List<String> command, String option, String value) {
        if (value != null && !value.isBlank()) {
            command.addAll(List.of(option, value.trim()));
        }
    }

    /** Where this checkout (bin/mpidrun) is: the datampi.home property, else DATAMPI_HOME. */
    static Path datampiHome() {
        String home = System.getProperty("datampi.home", System.getenv("DATAMPI_HOME"));
        if (home == null || !Files.isExecutable(Path.of(home, "bin/mpidrun"))) {
            throw new IllegalStateException("Set DATAMPI_HOME (or -Ddatampi.home) to the hive-datampi directory "
                    + "that holds bin/mpidrun; it is '" + home + "'");
        }
        return Path.of(home);
    }

    /** This module's jar (or class directory, when run from a build). */
    private static Path engineJar() {
        try {
            return Path.of(StageLaunch.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("Cannot locate the engine's jar", e);
        }
    }

    /** Hive's and Hadoop's jars for the ranks: the engine's runtime dependencies. */
    private static String engineClasspath(Path home) {
        Path lib = home.resolve("hive-datampi-engine/target/lib");
        if (!Files.isDirectory(lib)) {
            throw new IllegalStateException(lib + " is missing; run bin/setup");
        }
        return lib + File.separator + "*";
    }
}
