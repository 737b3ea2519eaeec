package org.datampi.hive.client;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.session.SessionState.LogHelper;
import org.apache.hadoop.hive.ql.session.SessionState;
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
import org.datampi.hive.app.SubmitDirectory;
import org.datampi.hive.conf.JobPlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The "datampi" MapReduce framework: a Hadoop job runner (like LocalJobRunner) that runs a submitted job with
 * mpidrun. Hive's JobClient has already written the job's configuration and input splits into the submit directory;
 * this runner decides the O and A task counts ({@link JobPlan}), launches {@link DataMPIHiveApplication} on the ranks
 * over that directory, and reports progress, counters and the first error back to Hive. It is the thin adapter of
 * Hadoop's ClientProtocol: the launch is {@link StageLaunch}'s, the running job and its attempts {@link RunningJob}'s.
 *
 * <p>Hadoop makes a runner per JobClient through {@link DataMPIClientProtocolProvider}, and hands it nothing but the
 * job's configuration: so DataMPITask's facts about the stage (its id, whether it is the last, whether its reducers
 * are fixed) come in the job's configuration, as Hive's own settings do, and the jobs of the JVM are one map that
 * every runner sees, as LocalJobRunner keeps its jobs; the task takes its job's outcome back by id ({@link #release})
 * once Hive's ExecDriver is done with it. The ClientProtocol methods below the job's are what a single-user runner
 * answers (LocalJobRunner's answers, mostly): Hadoop has no base class to inherit them from.
 */
public final class DataMPIJobRunner implements ClientProtocol {
    public static final String FRAMEWORK_NAME = "datampi";
    /** Set by DataMPITask: whether this stage is the query's last MapReduce-shaped stage. */
    public static final String LAST_STAGE = "datampi.stage.last";
    /** Set by DataMPITask: whether Hive's plan or the user fixed the reducer count. */
    public static final String REDUCERS_FIXED = "datampi.reducers.fixed";
    /** Set by DataMPITask: Hive's id of the stage (Stage-1), for the console's lines about the job. */
    public static final String STAGE_ID = "datampi.stage.id";

    private static final Logger LOG = LoggerFactory.getLogger(DataMPIJobRunner.class);
    /** Job numbers of this JVM's runner: every runner Hadoop makes shares them (see the class doc). */
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    /**
     * The JVM's submitted jobs, which every runner Hadoop makes sees; by the id's text: Hadoop asks with both the old
     * (mapred) and the new JobID class, which are never equal.
     */
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
        Path submitDir = new Path(jobSubmitDir);
        JobConf job = SubmitDirectory.jobConf(submitDir);
        JobSplit.TaskSplitMetaInfo[] splits = SplitMetaInfoReader.readSplitMetaInfo(jobId,
                submitDir.getFileSystem(job), job, submitDir);
        JobPlan plan = JobPlan.of(job, splits.length, job.getNumReduceTasks(), job.getBoolean(REDUCERS_FIXED, true),
                job.getBoolean(LAST_STAGE, false));
        // Hive's thread, which then polls the job: the session's console, where Hive's own lines go.
        RunningJob running = RunningJob.submit(jobId, job, jobSubmitDir, plan, SessionState.getConsole(),
                job.get(STAGE_ID, jobId.toString()));
        JOBS.put(jobId.toString(), running);
        return running.status();
    }

    /** A new job id of this JVM's runner: for Hadoop's JobClient, and for jobs that do not come through it. */
    static JobID newJobId() {
        return new JobID("datampi" + RUNNER_ID, SEQUENCE.incrementAndGet());
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
        return Optional.of(job.outcome());
    }

    /** Ends the warm ranks of this JVM's sessions (they also end by themselves when this JVM does). */
    public static void releaseRanks() {
        RankPools.closeWarm();
    }

    /**
     * What Hive shows the user after a stage: the directory with its rank logs (the same path on every host) and
     * which ranks ran on which host, why it failed and whether because a rank was lost (then another attempt may
     * succeed), where time went, and what its counters tell beyond Hive's (O task locality, how the job's files
     * reached the ranks).
     */
    public record JobOutcome(Optional<String> logDir, Optional<String> rankHosts, Optional<String> failure,
            boolean rankLost, StageTimeline timeline, List<String> notes) {
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
        int count = type == TaskType.MAP ? job.plan().oTasks() : job.plan().aTasks();
        float progress = type == TaskType.MAP ? job.mapProgress() : job.reduceProgress();
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
            job.kill();
        }
    }

    @Override
    public String getFilesystemName() throws IOException {
        return FileSystem.get(conf).getUri().toString();
    }

    @Override
    public String getStagingAreaDir() throws IOException {
        Path root = new Path(
                conf.get(JTConfig.JT_STAGING_AREA_ROOT, "/tmp/hadoop/mapred/staging"));
        String user = UserGroupInformation.getCurrentUser().getShortUserName();
        return FileSystem.get(conf).makeQualified(
                new Path(root, user + RUNNER_ID + "/.staging")).toString();
    }

    @Override
    public String getSystemDir() throws IOException {
        return FileSystem.get(conf).makeQualified(new Path(
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
}
