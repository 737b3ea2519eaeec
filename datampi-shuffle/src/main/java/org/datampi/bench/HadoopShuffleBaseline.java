package org.datampi.bench;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.datampi.examples.GeneratedRecords;
import org.datampi.runtime.ProcessMemory;

/**
 * The Hadoop side of bin/shuffle-bench: an identity MapReduce job in LocalJobRunner that moves the same
 * {@link GeneratedRecords} through Hadoop's own map-side sort, spill, merge and reduce-side shuffle, with the same
 * numbers of map and reduce tasks and as many concurrent tasks as datampi has processes.
 * Arguments: {@code TOTAL_PAIRS SEED MAP_TASKS REDUCE_TASKS CONCURRENT_TASKS WORK_DIR}.
 */
public final class HadoopShuffleBaseline {
    private static final String TOTAL_PAIRS = "datampi.bench.pairs";
    private static final String SEED = "datampi.bench.seed";
    private static final String MAP_TASKS = "datampi.bench.maps";

    private HadoopShuffleBaseline() {
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.set("mapreduce.framework.name", "local");
        conf.set("fs.defaultFS", "file:///");
        conf.setLong(TOTAL_PAIRS, Long.parseLong(args[0]));
        conf.setLong(SEED, Long.parseLong(args[1]));
        conf.setInt(MAP_TASKS, Integer.parseInt(args[2]));
        conf.setInt("mapreduce.local.map.tasks.maximum", Integer.parseInt(args[4]));
        conf.setInt("mapreduce.local.reduce.tasks.maximum", Integer.parseInt(args[4]));
        Path work = Path.of(args[5]);
        conf.set("mapreduce.jobtracker.staging.root.dir", work.resolve("staging").toString());
        conf.set("mapreduce.cluster.local.dir", work.resolve("local").toString());
        conf.set("hadoop.tmp.dir", work.resolve("tmp").toString());

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
        job.setNumReduceTasks(Integer.parseInt(args[3]));
        long start = System.currentTimeMillis();
        if (!job.waitForCompletion(false)) {
            throw new IllegalStateException("The Hadoop baseline job failed");
        }
        long end = System.currentTimeMillis();
        System.out.println("BENCH hadoop startMillis=" + start + " endMillis=" + end
                + " pairs=" + job.getCounters().findCounter(ChecksumReducer.GROUP, "pairs").getValue()
                + " bytes=" + job.getCounters().findCounter(ChecksumReducer.GROUP, "bytes").getValue()
                + " hashSum=" + job.getCounters().findCounter(ChecksumReducer.GROUP, "hashSum").getValue()
                + " peakRss=" + ProcessMemory.peakResidentBytes());
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

        @Override
        public void initialize(InputSplit split, TaskAttemptContext context) {
            Configuration conf = context.getConfiguration();
            int task = ((TaskSplit) split).task;
            records = new GeneratedRecords(conf.getLong(SEED, 0), task);
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
            byte[] valueBytes = GeneratedRecords.valueFor(keyBytes, length);
            value.set(valueBytes, 0, valueBytes.length);
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
