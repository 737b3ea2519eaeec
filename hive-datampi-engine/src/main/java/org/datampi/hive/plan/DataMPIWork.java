package org.datampi.hive.plan;

import static java.util.Objects.requireNonNull;

import java.util.Locale;

import org.apache.hadoop.hive.ql.plan.Explain;
import org.apache.hadoop.hive.ql.plan.Explain.Level;
import org.apache.hadoop.hive.ql.plan.Explain.Vectorization;
import org.apache.hadoop.hive.ql.plan.MapredWork;
import org.apache.hadoop.hive.ql.plan.ReduceWork;
import org.datampi.hive.conf.DataMPISettings.Parallelism;

/**
 * A Hive stage as datampi runs it: the MapWork (run by O tasks) and the optional ReduceWork (run by A tasks) of the
 * MapredWork Hive compiled, unchanged, plus how many tasks of each kind the stage gets. It is what EXPLAIN shows for
 * a datampi stage ("DataMPI" instead of "Map Reduce", with the O and A task counts).
 */
@Explain(displayName = "DataMPI", explainLevels = {Level.USER, Level.DEFAULT, Level.EXTENDED},
        vectorization = Vectorization.SUMMARY_PATH)
public final class DataMPIWork extends MapredWork {
    private static final long serialVersionUID = 1L;

    private final Parallelism parallelism;

    private DataMPIWork(Parallelism parallelism) {
        this.parallelism = requireNonNull(parallelism, "parallelism is null");
    }

    /** The same stage, as a DataMPIWork sharing the compiled MapWork and ReduceWork. */
    public static DataMPIWork of(MapredWork compiled, Parallelism parallelism) {
        DataMPIWork work = new DataMPIWork(parallelism);
        work.setMapWork(compiled.getMapWork());
        work.setReduceWork(compiled.getReduceWork());
        work.setFinalMapRed(compiled.isFinalMapRed());
        return work;
    }

    @Explain(displayName = "O tasks", explainLevels = {Level.USER, Level.DEFAULT, Level.EXTENDED})
    public String getOTasks() {
        return "one per input split (at least one per rank where the input allows)";
    }

    @Explain(displayName = "A tasks", explainLevels = {Level.USER, Level.DEFAULT, Level.EXTENDED})
    public String getATasks() {
        ReduceWork reduce = getReduceWork();
        if (reduce == null) {
            return "0 (map-only stage)";
        }
        if (reduce.getNumReduceTasks() >= 0) {
            return Integer.toString(reduce.getNumReduceTasks());
        }
        return parallelism == Parallelism.ENHANCED
                ? "as many as O tasks (1 in a query's last stage)"
                : "Hive's reducer estimate at run time, at least one per rank";
    }

    @Explain(displayName = "parallelism", explainLevels = {Level.DEFAULT, Level.EXTENDED})
    public String getParallelism() {
        return parallelism.name().toLowerCase(Locale.ROOT);
    }
}
