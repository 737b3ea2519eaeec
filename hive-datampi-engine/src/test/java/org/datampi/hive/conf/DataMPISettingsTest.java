package org.datampi.hive.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.datampi.hive.conf.DataMPISettings.PlanShape;
import org.datampi.runtime.Placement;
import org.datampi.shuffle.ShuffleSettings;
import org.junit.jupiter.api.Test;

class DataMPISettingsTest {
    @Test
    void theDagShapeIsTheDefaultAndEitherShapeCanBeChosen() {
        Configuration conf = new Configuration(false);
        assertEquals(PlanShape.DAG, PlanShape.of(conf), "unset: the faster shape");
        conf.set(DataMPISettings.PLAN, " MapReduce ");
        assertEquals(PlanShape.MAPREDUCE, PlanShape.of(conf));
        conf.set(DataMPISettings.PLAN, "dag");
        assertEquals(PlanShape.DAG, PlanShape.of(conf));
    }

    @Test
    void anUnknownShapeIsRefusedNamingTheKeyAndTheAcceptedValues() {
        Configuration conf = new Configuration(false);
        conf.set(DataMPISettings.PLAN, "graph");
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> PlanShape.of(conf));
        assertEquals("Invalid value 'graph' for hive.datampi.plan: expected dag or mapreduce", error.getMessage());
    }

    @Test
    void aStageIsRetriedOnceByDefaultAndRetriesAreANumberOfAtLeastZero() {
        Configuration conf = new Configuration(false);
        assertEquals(1, DataMPISettings.stageRetries(conf));
        conf.set(DataMPISettings.STAGE_RETRIES, " 0 ");
        assertEquals(0, DataMPISettings.stageRetries(conf));
        conf.set(DataMPISettings.STAGE_RETRIES, "3");
        assertEquals(3, DataMPISettings.stageRetries(conf));
        for (String wrong : new String[] {"-1", "once", "1.5"}) {
            conf.set(DataMPISettings.STAGE_RETRIES, wrong);
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                    () -> DataMPISettings.stageRetries(conf));
            assertEquals("Invalid value '" + wrong + "' for hive.datampi.stage.retries: expected 0 (no retry) or a "
                    + "positive number of retries", error.getMessage());
        }
    }

    @Test
    void twoGroupsOfRanksByDefaultAndAtLeastOne() {
        Configuration conf = new Configuration(false);
        assertEquals(2, DataMPISettings.groupsMax(conf));
        conf.set(DataMPISettings.GROUPS_MAX, "1");
        assertEquals(1, DataMPISettings.groupsMax(conf));
        conf.set(DataMPISettings.GROUPS_MAX, "0");
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> DataMPISettings.groupsMax(conf));
        assertEquals("Invalid value '0' for hive.datampi.groups.max: expected a positive number of groups",
                error.getMessage());
    }

    @Test
    void waitingStagesSmallestFirstByDefaultOrInTheOrderTheyCame() {
        Configuration conf = new Configuration(false);
        assertEquals(DataMPISettings.QueueOrder.SMALLEST, DataMPISettings.QueueOrder.of(conf));
        conf.set(DataMPISettings.QUEUE_ORDER, " Arrival ");
        assertEquals(DataMPISettings.QueueOrder.ARRIVAL, DataMPISettings.QueueOrder.of(conf));
        conf.set(DataMPISettings.QUEUE_ORDER, "fair");
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> DataMPISettings.QueueOrder.of(conf));
        assertEquals("Invalid value 'fair' for hive.datampi.queue.order: expected smallest or arrival",
                error.getMessage());
    }

    @Test
    void everySettingIsCheckedNamingTheKeyAndWhatItAccepts() {
        Map<String, String> wrong = Map.ofEntries(
                Map.entry(DataMPISettings.PARALLELISM, "maximal"),
                Map.entry(DataMPISettings.MEM_USED_PERCENT, "0"),
                Map.entry(DataMPISettings.SEND_QUEUE, "-2"),
                Map.entry(DataMPISettings.BLOCK_SIZE, "1024"),
                Map.entry(DataMPISettings.PROCESSES, "many"),
                Map.entry(DataMPISettings.HEAP, "2 GB"),
                Map.entry(DataMPISettings.HEAP_MAX, "lots"),
                Map.entry(DataMPISettings.MPI, "lam"),
                Map.entry(DataMPISettings.HOSTFILE, "/no/such/hostfile"),
                Map.entry(DataMPISettings.OVERSUBSCRIBE, "yes"),
                Map.entry(DataMPISettings.LOCALITY_WAIT, "-3"),
                Map.entry(DataMPISettings.REUSE_RANKS, "1"),
                Map.entry(DataMPISettings.START_TIMEOUT, "soon"),
                Map.entry(DataMPISettings.STAGE_TIMEOUT, "-1"),
                Map.entry(DataMPISettings.CANCEL_GRACE, "-1"),
                Map.entry(DataMPISettings.STAGE_RETRIES, "-1"),
                Map.entry(DataMPISettings.GROUPS_MAX, "0"),
                Map.entry(DataMPISettings.QUEUE_ORDER, "fair"),
                Map.entry(DataMPISettings.PLAN, "graph"),
                Map.entry(DataMPISettings.INPLACE_PROGRESS, "on"),
                Map.entry(DataMPISettings.PRINT_SUMMARY, "off"),
                Map.entry(DataMPISettings.CONCURRENT_VERTICES, "sometimes"),
                Map.entry(DataMPISettings.IO_CACHE_SIZE, "2g"));
        assertEquals(Set.copyOf(DataMPISettings.ALL), wrong.keySet(), "every setting has a wrong value here");
        Configuration valid = new Configuration(false);
        DataMPISettings.validate(valid);
        wrong.forEach((key, value) -> {
            Configuration conf = new Configuration(false);
            conf.set(key, value);
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                    () -> DataMPISettings.validate(conf), key + "=" + value);
            assertTrue(error.getMessage().startsWith("Invalid value '" + value + "' for " + key + ": expected "),
                    error.getMessage());
        });
    }

    @Test
    void theIoCacheIsOffAtZeroAndAPowerOfTwoFrom128mToAQuarterOfTheHeap() {
        for (String off : List.of("0", "0m")) {
            Configuration conf = new Configuration(false);
            conf.set(DataMPISettings.IO_CACHE_SIZE, off);
            DataMPISettings.validate(conf);
            assertEquals(0, DataMPISettings.ioCacheMegabytes(conf), off);
        }
        Configuration valid = new Configuration(false);
        valid.set(DataMPISettings.IO_CACHE_SIZE, "256m");
        DataMPISettings.validate(valid);
        assertEquals(256, DataMPISettings.ioCacheMegabytes(valid));
        // auto: a quarter of the heap as a power of two (2g: 512m; 3g: 512m too), off under a 512m heap.
        for (Map.Entry<String, Long> heap : Map.of("2g", 512L, "3g", 512L, "768m", 128L, "500m", 0L).entrySet()) {
            Configuration auto = new Configuration(false);
            auto.set(DataMPISettings.IO_CACHE_SIZE, "auto");
            auto.set(DataMPISettings.HEAP, heap.getKey());
            DataMPISettings.validate(auto);
            assertEquals(heap.getValue(), DataMPISettings.ioCacheMegabytes(auto), heap.getKey());
        }
        // 64m: Hive's allocator needs more; 384m: not a power of two; 1g: over a quarter of the default 2g heap.
        for (String wrong : List.of("64m", "384m", "1g")) {
            Configuration conf = new Configuration(false);
            conf.set(DataMPISettings.IO_CACHE_SIZE, wrong);
            assertThrows(IllegalArgumentException.class, () -> DataMPISettings.validate(conf), wrong);
        }
    }

    /** hive-site.xml ships some settings empty, and SET KEY= goes back to the default: a blank value is the default. */
    @Test
    void aBlankValueIsTheDefault() {
        Configuration conf = new Configuration(false);
        for (String key : DataMPISettings.ALL) {
            conf.set(key, " ");
        }
        DataMPISettings.validate(conf);
        assertEquals(2048, DataMPISettings.heapMegabytes(conf));
        assertEquals(1, DataMPISettings.stageRetries(conf));
        assertEquals(PlanShape.DAG, PlanShape.of(conf));
        assertEquals(ShuffleSettings.DEFAULT_BLOCK_SIZE, DataMPISettings.blockSize(conf));
    }

    /** The ranks' own rule for a block's size, named by the Hive setting (a session finds out at its SET). */
    @Test
    void aBlockSizeTheRanksWouldRefuseIsRefusedNamingTheHiveSetting() {
        Configuration conf = new Configuration(false);
        conf.set(DataMPISettings.BLOCK_SIZE, "262144");
        assertEquals(262_144, DataMPISettings.blockSize(conf));
        conf.set(DataMPISettings.BLOCK_SIZE, String.valueOf(128 << 20));
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> DataMPISettings.blockSize(conf));
        assertEquals("Invalid value '134217728' for hive.datampi.block.size: expected "
                + ShuffleSettings.BLOCK_SIZE_ACCEPTED, error.getMessage());
    }

    @Test
    void theAdministratorsCapOnTheHeapRefusesALargerOne() {
        Configuration conf = new Configuration(false);
        conf.set(DataMPISettings.HEAP_MAX, "4g");
        conf.set(DataMPISettings.HEAP, "4096m");
        assertEquals(4096, DataMPISettings.heapMegabytes(conf));
        conf.set(DataMPISettings.HEAP, "5g");
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> DataMPISettings.validate(conf));
        assertEquals("hive.datampi.heap=5g is more than hive.datampi.heap.max=4g, the administrator's cap on a "
                + "rank's heap", error.getMessage());
        conf.unset(DataMPISettings.HEAP);
        assertEquals(2048, DataMPISettings.heapMegabytes(conf), "the default 2g is within the cap");
        conf.set(DataMPISettings.HEAP_MAX, "1g");
        assertEquals(1024, DataMPISettings.heapMegabytes(conf), "unset, the heap is lowered to the cap");
    }

    /**
     * In a Slurm job that asked for memory, a rank's heap leaves a quarter of a task's memory to the rest of its JVM:
     * the default is lowered to fit, a larger heap asked for is refused naming the job and its memory, and a task too
     * small for any rank is refused too. Without a memory limit, nothing changes.
     */
    @Test
    void inASlurmJobTheHeapFitsATasksMemory() {
        Placement limited = slurmJob(Map.of("SLURM_MEM_PER_CPU", "1536"));
        Configuration conf = new Configuration(false);
        assertEquals(1152, DataMPISettings.heapMegabytes(conf, limited), "the default, lowered to 3/4 of 1536 MB");
        conf.set(DataMPISettings.HEAP, "1g");
        assertEquals(1024, DataMPISettings.heapMegabytes(conf, limited));
        conf.set(DataMPISettings.HEAP, "2g");
        IllegalArgumentException tooLarge = assertThrows(IllegalArgumentException.class,
                () -> DataMPISettings.heapMegabytes(conf, limited));
        assertEquals("hive.datampi.heap=2g does not fit the 1536 MB per task of Slurm job 12 (SLURM_MEM_PER_CPU=1536 "
                + "x 1 CPU per task): a rank's JVM needs a third more than its heap (metaspace, thread stacks, MPI's "
                + "buffers); set hive.datampi.heap to at most 1152m, or ask Slurm for more memory per task "
                + "(salloc/sbatch --mem-per-cpu or --mem)", tooLarge.getMessage());
        assertEquals(2048, DataMPISettings.heapMegabytes(conf, slurmJob(Map.of())), "no memory asked for");
        conf.unset(DataMPISettings.HEAP);
        assertEquals(2048, DataMPISettings.heapMegabytes(conf, slurmJob(Map.of("SLURM_MEM_PER_NODE", "16000"))),
                "8000 MB for each of two tasks: the default fits");
        IllegalArgumentException tooSmall = assertThrows(IllegalArgumentException.class,
                () -> DataMPISettings.heapMegabytes(conf, slurmJob(Map.of("SLURM_MEM_PER_CPU", "600"))));
        assertEquals("A rank does not fit the 600 MB per task of Slurm job 12 (SLURM_MEM_PER_CPU=600 x 1 CPU per "
                + "task): its heap would be 450m; ask Slurm for at least 683 MB per task (salloc/sbatch --mem-per-cpu "
                + "or --mem)", tooSmall.getMessage());
    }

    /** Slurm job 12 on dmp1 and dmp2, two tasks each, with MEMORY's variables. */
    private static Placement slurmJob(Map<String, String> memory) {
        Map<String, String> environment = new HashMap<>(Map.of("SLURM_JOB_ID", "12", "SLURM_JOB_NODELIST",
                "dmp[1-2]", "SLURM_TASKS_PER_NODE", "2(x2)"));
        environment.putAll(memory);
        return Placement.of("", environment, nodeList -> List.of("dmp1", "dmp2"));
    }
}
