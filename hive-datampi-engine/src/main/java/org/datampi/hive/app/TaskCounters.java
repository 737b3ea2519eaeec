package org.datampi.hive.app;

import static java.util.Objects.requireNonNull;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Collection;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.counters.Limits;
import org.apache.tez.common.counters.CounterGroup;
import org.apache.tez.common.counters.TezCounter;
import org.apache.tez.common.counters.TezCounters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Hadoop Reporter a task's Hive operators count into. When the task ends its counters are written to the job's
 * submit directory, where the job runner merges them for Hive (statistics, row counts on the console).
 */
public final class TaskCounters implements Reporter {
    private static final Logger LOG = LoggerFactory.getLogger(TaskCounters.class);
    /** Whether this JVM's log has named Hadoop's counter cap yet: the cap is JVM-wide, so is saying it once. */
    private static final AtomicBoolean CAP_NAMED = new AtomicBoolean();
    private static final String DIRECTORY = "datampi-counters";
    /**
     * A task's start and end ({@link #STARTED}, {@link #ENDED}, milliseconds of the epoch): times, not amounts, so
     * they are read per task and left out of every sum.
     */
    public static final String TIMES = "datampi-task-times";
    public static final String STARTED = "STARTED";
    public static final String ENDED = "ENDED";

    private final Counters counters = new Counters();
    private final InputSplit split;

    public TaskCounters(InputSplit split) {
        this.split = split;
    }

    /** Tez's counters (a DAG task's, a split generator's) in the form the job runner adds up. */
    public static TaskCounters of(TezCounters tez) {
        TaskCounters counters = new TaskCounters(null);
        for (CounterGroup group : tez) {
            for (TezCounter counter : group) {
                counters.incrCounter(group.getName(), counter.getName(), counter.getValue());
            }
        }
        return counters;
    }

    @Override
    public void setStatus(String status) {
    }

    @Override
    public Counters.Counter getCounter(Enum<?> name) {
        return counters.findCounter(name);
    }

    @Override
    public Counters.Counter getCounter(String group, String name) {
        return counters.findCounter(group, name);
    }

    @Override
    public void incrCounter(Enum<?> key, long amount) {
        counters.incrCounter(key, amount);
    }

    @Override
    public void incrCounter(String group, String counter, long amount) {
        counters.incrCounter(group, counter, amount);
    }

    @Override
    public InputSplit getInputSplit() {
        if (split == null) {
            throw new UnsupportedOperationException("An A task has no input split");
        }
        return split;
    }

    @Override
    public float getProgress() {
        return 0;
    }

    @Override
    public void progress() {
    }

    /** Writes this task's counters as {@code <submitDir>/datampi-counters/<attempt>}. */
    public void save(Configuration conf, Path submitDir, String attempt) throws IOException {
        Path file = new Path(new Path(submitDir, DIRECTORY), requireNonNull(attempt, "attempt is null"));
        try (DataOutputStream out = file.getFileSystem(conf).create(file, true)) {
            counters.write(out);
        }
    }

    /** The sum of every task's (and rank's) saved counters, without the tasks' times ({@link #TIMES}). */
    public static Counters merge(Configuration conf, Path submitDir) throws IOException {
        return sum(read(conf, submitDir).values());
    }

    /** The sum of COUNTERS, without the tasks' times ({@link #TIMES}). */
    public static Counters sum(Collection<Counters> counters) {
        Counters total = new Counters();
        for (Counters task : counters) {
            for (Counters.Group group : task) {
                if (!group.getName().equals(TIMES)) {
                    for (Counters.Counter counter : group) {
                        total.incrCounter(group.getName(), counter.getName(), counter.getValue());
                    }
                }
            }
        }
        return total;
    }

    /** Removes every saved counters file of the job: those of an attempt that failed, before the next one runs. */
    public static void clear(Configuration conf, Path submitDir) throws IOException {
        Path directory = new Path(submitDir, DIRECTORY);
        directory.getFileSystem(conf).delete(directory, true);
    }

    /**
     * Every saved counters file of the job, by the name it was saved under. Hadoop caps the counters of one
     * {@link Counters} JVM-wide at the {@code mapreduce.job.counters.max} its first use sees (DataMPIEngine.install
     * sets it from the session's configuration), while a DAG's sum counts Hive's counters per vertex: a cap below the
     * job's is named once in the log.
     */
    public static SortedMap<String, Counters> read(Configuration conf, Path submitDir) throws IOException {
        int wanted = conf.getInt(MRJobConfig.COUNTERS_MAX_KEY, MRJobConfig.COUNTERS_MAX_DEFAULT);
        if (Limits.getCountersMax() < wanted && CAP_NAMED.compareAndSet(false, true)) {
            LOG.warn("This JVM counts at most {} counters ({} was read before the job's {}): a stage's summary with "
                    + "more is left out; set it in mapred-site.xml", Limits.getCountersMax(),
                    MRJobConfig.COUNTERS_MAX_KEY, wanted);
        }
        SortedMap<String, Counters> saved = new TreeMap<>();
        Path directory = new Path(submitDir, DIRECTORY);
        FileSystem fs = directory.getFileSystem(conf);
        if (!fs.exists(directory)) {
            return saved;
        }
        for (FileStatus file : fs.listStatus(directory)) {
            Counters task = new Counters();
            try (DataInputStream in = fs.open(file.getPath())) {
                task.readFields(in);
            }
            saved.put(file.getPath().getName(), task);
        }
        return saved;
    }
}
