package org.datampi.hive.client;

import static java.util.Objects.requireNonNull;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.ClusterMetrics;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.QueueAclsInfo;
import org.apache.hadoop.mapreduce.QueueInfo;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskTrackerInfo;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.mapreduce.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.mapreduce.server.jobtracker.JTConfig;
import org.apache.hadoop.mapreduce.split.JobSplit;
import org.apache.hadoop.mapreduce.split.SplitMetaInfoReader;
import org.apache.hadoop.mapreduce.v2.LogParams;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.AccessControlList;
import org.apache.hadoop.security.token.Token;
import org.datampi.hive.app.DataMPIHiveApplication;
import org.datampi.hive.app.StageCounters;
import org.datampi.hive.app.SubmitDirectory;
import org.datampi.hive.app.TaskCounters;
import org.datampi.hive.session.DataMPISettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The "datampi" MapReduce framework: a Hadoop job runner (like LocalJobRunner) that runs a submitted job with
 * mpidrun. Hive's JobClient has already written the job's configuration and input splits into the submit directory;
 * this runner decides the O and A task counts ({@link JobPlan}), launches {@link DataMPIHiveApplication} on the ranks
 * over that directory, and reports progress, counters and the first error back to Hive.
 */
public final class DataMPIJobRunner implements ClientProtocol {
    public static final String FRAMEWORK_NAME = "datampi";
    /** Set by DataMPITask: whether this stage is the query's last MapReduce-shaped stage. */
    public static final String LAST_STAGE = "datampi.stage.last";
    /** Set by DataMPITask: whether Hive's plan or the user fixed the reducer count. */
    public static final String REDUCERS_FIXED = "datampi.reducers.fixed";

    private static final Logger LOG = LoggerFactory.getLogger(DataMPIJobRunner.class);
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    /** By the id's text: Hadoop asks with both the old (mapred) and the new JobID class, which are never equal. */
    private static final Map<String, RunningJob> JOBS = new ConcurrentHashMap<>();

    /** One per JVM, so that job ids and staging directories of every stage of a session share it. */
    private static final String RUNNER_ID = Integer.toString(new Random().nextInt(Integer.MAX_VALUE));

    private final Configuration conf;

    DataMPIJobRunner(Configuration conf) {
        this.conf = requireNonNull(conf, "conf is null");
    }

    @Override
    public JobID getNewJobID() {
        return newJobId();
    }

    @Override
    public JobStatus submitJob(JobID jobId, String jobSubmitDir, Credentials credentials) throws IOException {
        org.apache.hadoop.fs.Path submitDir = new org.apache.hadoop.fs.Path(jobSubmitDir);
        JobConf job = SubmitDirectory.jobConf(submitDir);
        JobSplit.TaskSplitMetaInfo[] splits = SplitMetaInfoReader.readSplitMetaInfo(jobId,
                submitDir.getFileSystem(job), job, submitDir);
        JobPlan plan = JobPlan.of(job, splits.length, job.getNumReduceTasks(), job.getBoolean(REDUCERS_FIXED, true),
                job.getBoolean(LAST_STAGE, false));
        MpidrunJob process = launch(job, plan, jobId.toString(), DataMPIHiveApplication.class.getName(),
                List.of(jobSubmitDir, jobId.toString()));
        RunningJob running = new RunningJob(jobId, job, jobSubmitDir, plan, process);
        JOBS.put(jobId.toString(), running);
        return running.status();
    }

    /**
     * Gives a job to the session's ranks (warm or new, by hive.datampi.reuse.ranks): PROGRAM (a class with the
     * static setUpJob and main that CommonProcess calls) with its ARGUMENTS, in O and A tasks by the plan, under the
     * job's start and stage deadlines.
     */
    static MpidrunJob launch(JobConf job, JobPlan plan, String jobId, String program, List<String> arguments) {
        List<String> jobArguments = new ArrayList<>(List.of("--job-id", jobId, "-O", Integer.toString(plan.oTasks()),
                "-A", Integer.toString(plan.aTasks()), program));
        jobArguments.addAll(arguments);
        long startTimeout = DataMPISettings.seconds(job, DataMPISettings.START_TIMEOUT, 120);
        long stageTimeout = DataMPISettings.seconds(job, DataMPISettings.STAGE_TIMEOUT, 86_400);
        MpidrunJob process = RankPools.submit(launchCommand(job, plan), reuseRanks(job), jobId, jobArguments);
        process.failUnlessStartedWithin(startTimeout, DataMPISettings.START_TIMEOUT + "=" + startTimeout
                + (job.get(DataMPISettings.HOSTFILE) == null ? ""
                        : "; can every host of " + job.get(DataMPISettings.HOSTFILE).trim() + " be reached?"));
        process.failUnlessEndedWithin(stageTimeout, DataMPISettings.STAGE_TIMEOUT + "=" + stageTimeout);
        return process;
    }

    /** A new job id of this JVM's runner: for Hadoop's JobClient, and for jobs that do not come through it. */
    static JobID newJobId() {
        return new JobID("datampi" + RUNNER_ID, SEQUENCE.incrementAndGet());
    }

    /** mpidrun --serve with the stage's launch settings: stages with the same settings can share the ranks. */
    private static List<String> launchCommand(JobConf job, JobPlan plan) {
        Path home = datampiHome();
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/mpidrun").toString(), "-mode", "COM",
                "--serve", "--idle-seconds", Integer.toString(RankPool.IDLE_SECONDS), "-np",
                Integer.toString(plan.slots())));
        addIfSet(command, "--heap", job.get(DataMPISettings.HEAP));
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
        command.addAll(List.of("--classpath", engineClasspath(home), "-jar", engineJar().toString()));
        return command;
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
            return Path.of(DataMPIJobRunner.class.getProtectionDomain().getCodeSource().getLocation().toURI());
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

    /**
     * Forgets a job Hive is done with and returns where its rank logs are and the first error it reported (rank,
     * task and message when a task failed), and removes its submit directory. A session runs many stages; none is
     * kept after its task ends.
     */
    public static Optional<JobOutcome> release(String jobId) {
        RunningJob job = JOBS.remove(jobId);
        if (job == null) {
            return Optional.empty();
        }
        job.removeSubmitDirectory();
        return Optional.of(new JobOutcome(job.process.logDir(), job.process.rankHosts(), job.failure(),
                job.process.timeline(), StageCounters.describe(job.counters())));
    }

    /** Ends the warm ranks of this JVM's sessions (they also end by themselves when this JVM does). */
    public static void releaseRanks() {
        RankPools.closeWarm();
    }

    /**
     * What Hive shows the user after a stage: the directory with its rank logs (the same path on every host) and
     * which ranks ran on which host, why it failed, where time went, and what its counters tell beyond Hive's (O task
     * locality, how the job's files reached the ranks).
     */
    public record JobOutcome(Optional<String> logDir, Optional<String> rankHosts, Optional<String> failure,
            StageTimeline timeline, List<String> notes) {
        public JobOutcome {
            requireNonNull(logDir, "logDir is null");
            requireNonNull(rankHosts, "rankHosts is null");
            requireNonNull(failure, "failure is null");
            requireNonNull(timeline, "timeline is null");
            notes = List.copyOf(notes);
        }
    }

    @Override
    public JobStatus getJobStatus(JobID jobId) {
        RunningJob job = JOBS.get(jobId.toString());
        return job == null ? null : job.status();
    }

    @Override
    public Counters getJobCounters(JobID jobId) throws IOException {
        RunningJob job = JOBS.get(jobId.toString());
        return job == null ? null : new Counters(job.counters());
    }

    @Override
    public TaskReport[] getTaskReports(JobID jobId, TaskType type) {
        RunningJob job = JOBS.get(jobId.toString());
        if (job == null || (type != TaskType.MAP && type != TaskType.REDUCE)) {
            return new TaskReport[0];
        }
        int count = type == TaskType.MAP ? job.plan.oTasks() : job.plan.aTasks();
        float progress = type == TaskType.MAP ? job.process.mapProgress() : job.process.reduceProgress();
        TaskReport[] reports = new TaskReport[count];
        for (int i = 0; i < count; i++) {
            reports[i] = new TaskReport(org.apache.hadoop.mapred.TaskID.downgrade(new TaskID(jobId, type, i)), progress, "", new String[0], null, 0, 0,
                    new Counters());
        }
        return reports;
    }

    @Override
    public void killJob(JobID jobId) {
        RunningJob job = JOBS.get(jobId.toString());
        if (job != null) {
            job.process.kill();
        }
    }

    @Override
    public String getFilesystemName() throws IOException {
        return FileSystem.get(conf).getUri().toString();
    }

    @Override
    public String getStagingAreaDir() throws IOException {
        org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(
                conf.get(JTConfig.JT_STAGING_AREA_ROOT, "/tmp/hadoop/mapred/staging"));
        String user = UserGroupInformation.getCurrentUser().getShortUserName();
        return FileSystem.get(conf).makeQualified(
                new org.apache.hadoop.fs.Path(root, user + RUNNER_ID + "/.staging")).toString();
    }

    @Override
    public String getSystemDir() throws IOException {
        return FileSystem.get(conf).makeQualified(new org.apache.hadoop.fs.Path(
                conf.get(JTConfig.JT_SYSTEM_DIR, "/tmp/hadoop/mapred/system"))).toString();
    }

    @Override
    public ClusterMetrics getClusterMetrics() {
        return new ClusterMetrics(0, 0, 0, 0, 0, 0, 1, 1, JOBS.size(), 1, 0, 0);
    }

    @Override
    public org.apache.hadoop.mapreduce.Cluster.JobTrackerStatus getJobTrackerStatus() {
        return org.apache.hadoop.mapreduce.Cluster.JobTrackerStatus.RUNNING;
    }

    @Override
    public long getTaskTrackerExpiryInterval() {
        return 0;
    }

    @Override
    public AccessControlList getQueueAdmins(String queueName) {
        return new AccessControlList(" ");
    }

    @Override
    public void setJobPriority(JobID jobId, String priority) {
        throw new UnsupportedOperationException("datampi jobs have no priorities");
    }

    @Override
    public boolean killTask(TaskAttemptID taskId, boolean shouldFail) {
        throw new UnsupportedOperationException("datampi kills whole jobs, not single tasks");
    }

    @Override
    public JobStatus[] getAllJobs() {
        return JOBS.values().stream().map(RunningJob::status).toArray(JobStatus[]::new);
    }

    @Override
    public TaskCompletionEvent[] getTaskCompletionEvents(JobID jobId, int fromEventId, int maxEvents) {
        return TaskCompletionEvent.EMPTY_ARRAY;
    }

    @Override
    public String[] getTaskDiagnostics(TaskAttemptID taskId) {
        return new String[0];
    }

    @Override
    public TaskTrackerInfo[] getActiveTrackers() {
        return new TaskTrackerInfo[0];
    }

    @Override
    public TaskTrackerInfo[] getBlacklistedTrackers() {
        return new TaskTrackerInfo[0];
    }

    @Override
    public String getJobHistoryDir() {
        return null;
    }

    @Override
    public QueueInfo[] getQueues() {
        return new QueueInfo[0];
    }

    @Override
    public QueueInfo getQueue(String queueName) {
        return null;
    }

    @Override
    public QueueAclsInfo[] getQueueAclsForCurrentUser() {
        return new QueueAclsInfo[0];
    }

    @Override
    public QueueInfo[] getRootQueues() {
        return new QueueInfo[0];
    }

    @Override
    public QueueInfo[] getChildQueues(String queueName) {
        return new QueueInfo[0];
    }

    @Override
    public Token<DelegationTokenIdentifier> getDelegationToken(Text renewer) {
        return null;
    }

    @Override
    public long renewDelegationToken(Token<DelegationTokenIdentifier> token) {
        return 0;
    }

    @Override
    public void cancelDelegationToken(Token<DelegationTokenIdentifier> token) {
    }

    @Override
    public LogParams getLogFileParams(JobID jobId, TaskAttemptID taskAttemptId) {
        return null;
    }

    @Override
    public long getProtocolVersion(String protocol, long clientVersion) {
        return ClientProtocol.versionID;
    }

    @Override
    public ProtocolSignature getProtocolSignature(String protocol, long clientVersion, int clientMethodsHash)
            throws IOException {
        return ProtocolSignature.getProtocolSignature(this, protocol, clientVersion, clientMethodsHash);
    }

    /**
     * A submitted job: its plan, its mpidrun process and, once it ended, its merged counters. For Hive the job ends
     * only after {@link #finish} has kept the ranks' counters and removed the submit directory.
     */
    private static final class RunningJob {
        private final JobID id;
        private final JobConf job;
        private final String submitDir;
        private final JobPlan plan;
        private final MpidrunJob process;
        private final CompletableFuture<MpidrunJob.State> end;
        private volatile org.apache.hadoop.mapred.Counters counters = new org.apache.hadoop.mapred.Counters();

        RunningJob(JobID id, JobConf job, String submitDir, JobPlan plan, MpidrunJob process) {
            this.id = id;
            this.job = job;
            this.submitDir = submitDir;
            this.plan = plan;
            this.process = process;
            this.end = process.exit().thenApply(this::finish);
        }

        /** Merges the counters the ranks wrote into the submit directory. */
        private MpidrunJob.State finish(MpidrunJob.State state) {
            org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(submitDir);
            try {
                if (state == MpidrunJob.State.SUCCEEDED) {
                    counters = TaskCounters.merge(job, dir);
                }
                return state;
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read the counters of " + id + " from " + dir, e);
            }
        }

        /**
         * Deletes the submit directory (splits, job.xml, counter files), as LocalJobRunner does; only once Hive is
         * done with the job, since Hadoop's JobClient reads job.xml back each time Hive polls the job's status.
         */
        void removeSubmitDirectory() {
            org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(submitDir);
            try {
                dir.getFileSystem(job).delete(dir, true);
            } catch (IOException e) {
                LOG.warn("Cannot remove the submit directory {} of {}", dir, id, e);
            }
        }

        Optional<String> failure() {
            try {
                end.getNow(null);
                return process.failure();
            } catch (CompletionException e) {
                return Optional.of(e.getCause().getMessage());
            }
        }

        JobStatus status() {
            int state = switch (end.isCompletedExceptionally() ? MpidrunJob.State.FAILED
                    : end.getNow(MpidrunJob.State.RUNNING)) {
                case RUNNING -> org.apache.hadoop.mapred.JobStatus.RUNNING;
                case SUCCEEDED -> org.apache.hadoop.mapred.JobStatus.SUCCEEDED;
                case FAILED -> org.apache.hadoop.mapred.JobStatus.FAILED;
                case KILLED -> org.apache.hadoop.mapred.JobStatus.KILLED;
            };
            org.apache.hadoop.mapred.JobStatus status = new org.apache.hadoop.mapred.JobStatus(
                    org.apache.hadoop.mapred.JobID.downgrade(id), process.mapProgress(), process.reduceProgress(),
                    1.0f, state, job.getUser(), job.getJobName(), submitDir + "/job.xml", "");
            failure().ifPresent(status::setFailureInfo);
            return status;
        }

        org.apache.hadoop.mapred.Counters counters() {
            return counters;
        }
    }
}
