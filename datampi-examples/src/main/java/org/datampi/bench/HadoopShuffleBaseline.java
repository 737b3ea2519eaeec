package org.datampi.bench;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.apache.hadoop.mapreduce.v2.jobhistory.JobHistoryUtils;
import org.datampi.examples.GeneratedRecords;
import org.datampi.runtime.ProcessMemory;

/**
 * The Hadoop side of bin/shuffle-bench: an identity MapReduce job that moves the same {@link GeneratedRecords}
 * through Hadoop's own map-side sort, spill, merge and reduce-side shuffle, with the same numbers of map and reduce
 * tasks as datampi has O and A tasks.
 *
 * <p>Arguments: {@code --pairs N --seed S --maps M --reduces R [--value-bytes B] [--conf KEY=VALUE]...} and either
 * {@code --local CONCURRENT_TASKS WORK_DIR} (LocalJobRunner in this JVM, as many tasks at once as datampi has
 * processes: the one-machine bench) or {@code --yarn} (a job on the YARN cluster that the configuration on the
 * classpath names, its reducers fetching map outputs from the NodeManagers' ShuffleHandler: the cluster bench).
 *
 * <p>It prints one line {@code BENCH hadoop startMillis endMillis pairs bytes hashSum peakRss}: the job's wall time
 * as its client saw it and what the reducers received. On YARN the line also carries, from the job's history file,
 * {@code firstMapMillis} (its first map's start), {@code fetchedMillis} (the last reducer's end of shuffle: every map
 * output fetched and merged) and {@code lastReduceMillis}, which time the shuffle without the job's start-up.
 */
public final class HadoopShuffleBaseline {
    private static final String TOTAL_PAIRS = "datampi.bench.pairs";
    private static final String SEED = "datampi.bench.seed";
    private static final String MAP_TASKS = "datampi.bench.maps";
    private static final String VALUE_BYTES = "datampi.bench.value.bytes";
    private static final Duration HISTORY_TIMEOUT = Duration.ofSeconds(60);

    private HadoopShuffleBaseline() {
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        Map<String, String> settings = new LinkedHashMap<>();
        String framework = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--pairs" -> conf.setLong(TOTAL_PAIRS, Long.parseLong(args[++i]));
                case "--seed" -> conf.setLong(SEED, Long.parseLong(args[++i]));
                case "--maps" -> conf.setInt(MAP_TASKS, Integer.parseInt(args[++i]));
                case "--reduces" -> conf.setInt(MRJobConfig.NUM_REDUCES, Integer.parseInt(args[++i]));
                case "--value-bytes" -> conf.setInt(VALUE_BYTES, Integer.parseInt(args[++i]));
                case "--conf" -> {
                    String setting = args[++i];
                    int equals = setting.indexOf('=');
                    if (equals < 1) {
                        throw new IllegalArgumentException("--conf takes KEY=VALUE, got '" + setting + "'");
                    }
                    settings.put(setting.substring(0, equals), setting.substring(equals + 1));
                }
                case "--local" -> {
                    framework = "local";
                    int concurrent = Integer.parseInt(args[++i]);
                    Path work = Path.of(args[++i]);
                    conf.set(MRConfig.FRAMEWORK_NAME, "local");
                    conf.set("fs.defaultFS", "file:///");
                    conf.setInt("mapreduce.local.map.tasks.maximum", concurrent);
                    conf.setInt("mapreduce.local.reduce.tasks.maximum", concurrent);
                    conf.set("mapreduce.jobtracker.staging.root.dir", work.resolve("staging").toString());
                    conf.set("mapreduce.cluster.local.dir", work.resolve("local").toString());
                    conf.set("hadoop.tmp.dir", work.resolve("tmp").toString());
                }
                case "--yarn" -> {
                    framework = "yarn";
                    conf.set(MRConfig.FRAMEWORK_NAME, "yarn");
                }
                default -> throw new IllegalArgumentException("Unknown argument '" + args[i] + "'");
            }
        }
        if (framework == null) {
            throw new IllegalArgumentException("Give --local CONCURRENT_TASKS WORK_DIR or --yarn");
        }
        settings.forEach(conf::set);

        Job job = Job.getInstance(conf, "datampi shuffle baseline");
        job.setJarByClass(HadoopShuffleBaseline.class);
        job.setInputFormatClass(GeneratedInputFormat.class);
        job.setMapperClass(Mapper.class);
        job.setReducerClass(ChecksumReducer.class);
        job.setMapOutputKeyClass(BytesWritable.class);
        job.setMapOutputValueClass(BytesWritable.class);
        job.setOutputKeyClass(NullWritable.class);
        job.setOutputValueClass(NullWritable.class);
        job.setOutputFormatClass(NullOutputFormat.class);
        long start = System.currentTimeMillis();
        if (!job.waitForCompletion(false)) {
            throw new IllegalStateException("The Hadoop baseline job " + job.getJobID() + " failed");
        }
        long end = System.currentTimeMillis();
        StringBuilder line = new StringBuilder("BENCH hadoop startMillis=" + start + " endMillis=" + end);
        Counters counters;
        if (framework.equals("yarn")) {
            // With no history server, the client cannot ask for a finished job's counters or task times: both come
            // from the history file its application master wrote.
            JobHistoryParser.JobInfo history = new JobHistoryParser(FileSystem.get(conf),
                    historyFile(conf, job.getJobID())).parse();
            counters = history.getTotalCounters();
            line.append(" firstMapMillis=").append(attempts(history, TaskType.MAP)
                    .mapToLong(JobHistoryParser.TaskAttemptInfo::getStartTime).min().orElseThrow());
            line.append(" fetchedMillis=").append(attempts(history, TaskType.REDUCE)
                    .mapToLong(JobHistoryParser.TaskAttemptInfo::getShuffleFinishTime).max().orElseThrow());
            line.append(" lastReduceMillis=").append(attempts(history, TaskType.REDUCE)
                    .mapToLong(JobHistoryParser.TaskAttemptInfo::getFinishTime).max().orElseThrow());
        } else {
            counters = job.getCounters();
        }
        line.append(" pairs=").append(counters.findCounter(ChecksumReducer.GROUP, "pairs").getValue())
                .append(" bytes=").append(counters.findCounter(ChecksumReducer.GROUP, "bytes").getValue())
                .append(" hashSum=").append(counters.findCounter(ChecksumReducer.GROUP, "hashSum").getValue())
                .append(" peakRss=").append(ProcessMemory.peakResidentBytes());
        System.out.println(line);
    }

    /** The successful attempts of one kind of task. */
    private static Stream<JobHistoryParser.TaskAttemptInfo> attempts(JobHistoryParser.JobInfo history,
            TaskType type) {
        return history.getAllTasks().values().stream()
                .filter(task -> task.getTaskType() == type)
                .map(task -> task.getAllTaskAttempts().get(task.getSuccessfulAttemptId()));
    }

    /**
     * The job's history file, which its application master moves into the intermediate done directory as it ends
     * (possibly just after the client has seen the job succeed: waited for, up to HISTORY_TIMEOUT).
     */
    private static org.apache.hadoop.fs.Path historyFile(Configuration conf, JobID id)
            throws IOException, InterruptedException {
        JobConf jobConf = new JobConf(conf);
        org.apache.hadoop.fs.Path done = new org.apache.hadoop.fs.Path(
                JobHistoryUtils.getConfiguredHistoryIntermediateDoneDirPrefix(jobConf));
        FileSystem fs = done.getFileSystem(conf);
        long deadline = System.nanoTime() + HISTORY_TIMEOUT.toNanos();
        while (true) {
            if (fs.exists(done)) {
                RemoteIterator<LocatedFileStatus> files = fs.listFiles(done, true);
                while (files.hasNext()) {
                    org.apache.hadoop.fs.Path file = files.next().getPath();
                    if (file.getName().startsWith(id.toString()) && file.getName().endsWith(".jhist")) {
                        return file;
                    }
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("No history file of job " + id + " in " + done + " within "
                        + HISTORY_TIMEOUT.toSeconds() + " s of its end");
            }
            Thread.sleep(250);
        }
    }

    /** Sums what each reducer received into job counters. */
    public static final class ChecksumReducer extends Reducer<BytesWritable, BytesWritable, NullWritable, NullWritable> {
        static final String GROUP = "datampi.bench";
        private final PairChecksum checksum = new PairChecksum();

        @Override
        protected void reduce(BytesWritable key, Iterable<BytesWritable> values, Context context) {
            for (BytesWritable value : values) {
                checksum.add(key.getBytes(), key.getLength(), value.getBytes(), value.getLength());
            }
        }

        @Override
        protected void cleanup(Context context) {
            context.getCounter(GROUP, "pairs").increment(checksum.pairs());
            context.getCounter(GROUP, "bytes").increment(checksum.bytes());
            context.getCounter(GROUP, "hashSum").increment(checksum.hashSum());
        }
    }

    /** One split per map task; each generates its share of the records in memory, as the datampi O tasks do. */
    public static final class GeneratedInputFormat extends InputFormat<BytesWritable, BytesWritable> {
        @Override
        public List<InputSplit> getSplits(JobContext context) {
            int maps = context.getConfiguration().getInt(MAP_TASKS, 1);
            List<InputSplit> splits = new ArrayList<>();
            for (int i = 0; i < maps; i++) {
                splits.add(new TaskSplit(i));
            }
            return splits;
        }

        @Override
        public RecordReader<BytesWritable, BytesWritable> createRecordReader(InputSplit split,
                TaskAttemptContext context) {
            return new GeneratedReader();
        }
    }

    /** Names the map task whose records a split generates. */
    public static final class TaskSplit extends InputSplit implements Writable {
        private int task;

        public TaskSplit() {
        }

        TaskSplit(int task) {
            this.task = task;
        }

        @Override
        public long getLength() {
            return 0;
        }

        @Override
        public String[] getLocations() {
            return new String[0];
        }

        @Override
        public void write(DataOutput out) throws IOException {
            out.writeInt(task);
        }

        @Override
        public void readFields(DataInput in) throws IOException {
            task = in.readInt();
        }
    }

    private static final class GeneratedReader extends RecordReader<BytesWritable, BytesWritable> {
        private final BytesWritable key = new BytesWritable();
        private final BytesWritable value = new BytesWritable();
        private GeneratedRecords records;
        private long remaining;
        private long total;
        private int valueBytes;

        @Override
        public void initialize(InputSplit split, TaskAttemptContext context) {
            Configuration conf = context.getConfiguration();
            int task = ((TaskSplit) split).task;
            records = new GeneratedRecords(conf.getLong(SEED, 0), task);
            valueBytes = conf.getInt(VALUE_BYTES, GeneratedRecords.VALUE_BYTES);
            total = ShuffleBenchJob.share(conf.getLong(TOTAL_PAIRS, 0), conf.getInt(MAP_TASKS, 1), task);
            remaining = total;
        }

        @Override
        public boolean nextKeyValue() {
            if (remaining == 0) {
                return false;
            }
            remaining--;
            int length = records.nextKey();
            byte[] keyBytes = Arrays.copyOf(records.key(), length);
            key.set(keyBytes, 0, length);
            byte[] generated = GeneratedRecords.valueFor(keyBytes, length, valueBytes);
            value.set(generated, 0, generated.length);
            return true;
        }

        @Override
        public BytesWritable getCurrentKey() {
            return key;
        }

        @Override
        public BytesWritable getCurrentValue() {
            return value;
        }

        @Override
        public float getProgress() {
            return total == 0 ? 1 : 1 - (float) remaining / total;
        }

        @Override
        public void close() {
        }
    }
}
