package org.datampi.hive.client;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.Set;

import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.plan.BaseWork;
import org.apache.hadoop.hive.ql.plan.ReduceSinkDesc;
import org.apache.hadoop.hive.ql.plan.Statistics;
import org.apache.hadoop.hive.ql.plan.TableScanDesc;

/**
 * How much work a stage is, by Hive's own estimate, in rows' worth: the rows its table scans read and its reduce sinks
 * shuffle (the statistics EXPLAIN prints: "Statistics: Num rows"), plus {@value #ROWS_PER_VERTEX} for each vertex (a
 * map or reduce work), whose tasks, plan set-up and output cost about that much whatever the data. Operators are told
 * by their descriptors, as Hive's vectorized reduce sinks are no ReduceSinkOperator. {@link RankPools} serves waiting
 * stages smallest first by it, so that a short query is not queued behind long ones. Hive annotates the plan it
 * compiles for Tez (the DAG shape) with statistics; a plan some operator of which has none (Hive's MapReduce compiler)
 * is {@link #UNKNOWN}, served as the largest.
 *
 * @param rows rows' worth of work; {@link Long#MAX_VALUE} when unknown
 */
record StageSize(long rows) {
    static final StageSize UNKNOWN = new StageSize(Long.MAX_VALUE);
    /**
     * A vertex's fixed cost in rows: 20 of TPC-H's queries alone on two ranks at scale 0.1 took 0.12 s a vertex and
     * 0.25 s a million rows read and shuffled (a least-squares fit of their latencies against the two; BENCHMARKS.md,
     * "Short stages first"). With rows alone, a one-scan query like TPC-H's q6 ranked behind joins of small tables
     * that take four times as long.
     */
    static final long ROWS_PER_VERTEX = 500_000;

    StageSize {
        if (rows < 0) {
            throw new IllegalArgumentException("rows is negative: " + rows);
        }
    }

    /** Hive's estimate for the stage of WORKS: UNKNOWN unless every table scan and reduce sink has statistics. */
    static StageSize of(Collection<? extends BaseWork> works) {
        requireNonNull(works, "works is null");
        long rows = 0;
        boolean any = false;
        for (BaseWork work : works) {
            Set<Operator<?>> operators = work.getAllOperators();
            if (!operators.isEmpty()) {
                rows = saturatedAdd(rows, ROWS_PER_VERTEX);
            }
            for (Operator<?> operator : operators) {
                if (operator.getConf() instanceof TableScanDesc || operator.getConf() instanceof ReduceSinkDesc) {
                    Statistics statistics = operator.getStatistics();
                    if (statistics == null || statistics.getNumRows() < 0) {
                        return UNKNOWN;
                    }
                    rows = saturatedAdd(rows, statistics.getNumRows());
                    any = true;
                }
            }
        }
        return any ? new StageSize(rows) : UNKNOWN;
    }

    boolean known() {
        return rows != Long.MAX_VALUE;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    @Override
    public String toString() {
        return known() ? rows + " rows' worth" : "size unknown";
    }
}
