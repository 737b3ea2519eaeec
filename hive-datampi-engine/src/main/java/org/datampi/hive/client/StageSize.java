package org.datampi.hive.client;

import static java.util.Objects.requireNonNull;

import java.util.Collection;

import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.exec.ReduceSinkOperator;
import org.apache.hadoop.hive.ql.exec.TableScanOperator;
import org.apache.hadoop.hive.ql.plan.BaseWork;
import org.apache.hadoop.hive.ql.plan.Statistics;

/**
 * How much work a stage is, by Hive's own estimate: the rows its table scans read and its reduce sinks shuffle, summed
 * over its map and reduce work (the statistics EXPLAIN prints: "Statistics: Num rows"). {@link RankPools} serves
 * waiting stages smallest first by it, so that a short query is not queued behind long ones. Hive annotates the plan
 * it compiles for Tez (the DAG shape) with statistics; a plan some operator of which has none (Hive's MapReduce
 * compiler) is {@link #UNKNOWN}, served as the largest.
 *
 * @param rows rows read plus rows shuffled; {@link Long#MAX_VALUE} when unknown
 */
record StageSize(long rows) {
    static final StageSize UNKNOWN = new StageSize(Long.MAX_VALUE);

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
            for (Operator<?> operator : work.getAllOperators()) {
                if (operator instanceof TableScanOperator || operator instanceof ReduceSinkOperator) {
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
        return known() ? rows + " rows" : "size unknown";
    }
}
