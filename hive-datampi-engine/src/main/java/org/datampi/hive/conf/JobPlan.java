package org.datampi.hive.conf;

import static java.util.Objects.requireNonNull;

import org.apache.hadoop.conf.Configuration;
import org.datampi.runtime.Placement;

/**
 * How many O and A tasks a submitted job gets, by the paper's hive.datampi.parallelism (Section IV-D):
 * {@code default}: O tasks follow the input splits and A tasks Hive's reducer estimate, raised to one per rank;
 * {@code enhanced}: as many A tasks as O tasks, except one A task for the last stage of a query. A reducer count
 * Hive fixed (a user's mapreduce.job.reduces, bucketing, ORDER BY's single reducer) is never changed.
 *
 * <p>Why "one per rank": Hive estimates reducers at 256 MB of input each, for a cluster with many more reducer slots
 * than stages; below that, one A task would leave every other rank idle while it reduces the whole stage.
 *
 * @param oTasks one per input split
 * @param aTasks 0 for a map-only stage
 * @param slots ranks the stage may use: hive.datampi.processes (unset: the slots of {@link Placement})
 */
public record JobPlan(int oTasks, int aTasks, int slots) {
    public static JobPlan of(Configuration job, int splits, int hiveReducers, boolean reducersFixed,
            boolean lastStage) {
        requireNonNull(job, "job is null");
        return of(job, slots(job), splits, hiveReducers, reducersFixed, lastStage);
    }

    /** The same for a stage whose ranks ({@link #slots}) are already known. */
    public static JobPlan of(Configuration job, int slots, int splits, int hiveReducers, boolean reducersFixed,
            boolean lastStage) {
        requireNonNull(job, "job is null");
        DataMPISettings.Parallelism parallelism = DataMPISettings.Parallelism.of(job);
        int oTasks = Math.max(1, splits);
        int aTasks = hiveReducers;
        if (hiveReducers > 0 && !reducersFixed) {
            aTasks = parallelism == DataMPISettings.Parallelism.ENHANCED ? (lastStage ? 1 : oTasks)
                    : Math.max(hiveReducers, slots);
        }
        return new JobPlan(oTasks, aTasks, slots);
    }

    /**
     * hive.datampi.processes: the ranks a stage runs on. Unset, all the slots there are ({@link Placement}): the
     * hostfile's (hive.datampi.hostfile), else the tasks of the Slurm allocation Hive runs in, else this machine's
     * cores. More ranks than slots would share cores and memory that an admin sized for one rank each, so it is
     * refused unless hive.datampi.oversubscribe allows it.
     */
    public static int slots(Configuration job) {
        Placement placement = Placement.of(job.getTrimmed(DataMPISettings.HOSTFILE, ""));
        int available = placement.slots();
        String where = placement.describe();
        String value = job.getTrimmed(DataMPISettings.PROCESSES, "");
        if (value.isEmpty()) {
            return available;
        }
        int slots;
        try {
            slots = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            slots = 0;
        }
        if (slots < 1) {
            throw new IllegalArgumentException("Invalid value '" + value + "' for " + DataMPISettings.PROCESSES
                    + ": expected an integer >= 1 (unset: " + where + ")");
        }
        if (slots > available && !oversubscribe(job)) {
            throw new IllegalArgumentException(DataMPISettings.PROCESSES + "=" + slots + " is more than " + where
                    + "; set " + DataMPISettings.OVERSUBSCRIBE + "=true to run more ranks than slots");
        }
        return slots;
    }

    /** hive.datampi.oversubscribe: whether more ranks than slots may run (false). */
    public static boolean oversubscribe(Configuration job) {
        return DataMPISettings.flag(job, DataMPISettings.OVERSUBSCRIBE, false);
    }
}
