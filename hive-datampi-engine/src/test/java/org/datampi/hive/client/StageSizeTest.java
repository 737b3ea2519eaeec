package org.datampi.hive.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;

import org.apache.hadoop.hive.ql.CompilationOpContext;
import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.exec.OperatorFactory;
import org.apache.hadoop.hive.ql.exec.vector.reducesink.VectorReduceSinkLongOperator;
import org.apache.hadoop.hive.ql.plan.MapWork;
import org.apache.hadoop.hive.ql.plan.ReduceSinkDesc;
import org.apache.hadoop.hive.ql.plan.ReduceWork;
import org.apache.hadoop.hive.ql.plan.SelectDesc;
import org.apache.hadoop.hive.ql.plan.Statistics;
import org.apache.hadoop.hive.ql.plan.TableScanDesc;
import org.junit.jupiter.api.Test;

/**
 * A stage's size is the rows Hive estimates its table scans read and its reduce sinks shuffle, over all its work, and
 * a vertex's fixed cost for each work.
 */
class StageSizeTest {
    private final CompilationOpContext context = new CompilationOpContext();

    @Test
    void rowsReadAndShuffledOverEveryWork() {
        MapWork orders = scanThenShuffle("orders", 1_500_000, 150_000);
        MapWork lineitem = scanThenShuffle("lineitem", 6_000_000, 600_000);
        ReduceWork join = new ReduceWork("Reducer 3");
        join.setReducer(OperatorFactory.get(context, new SelectDesc()));

        assertEquals(new StageSize(1_500_000 + 150_000 + 6_000_000 + 600_000 + 3 * StageSize.ROWS_PER_VERTEX),
                StageSize.of(List.of(orders, lineitem, join)));
    }

    /** Hive's native vectorized reduce sinks (the DAG shape's ORC stages) are no ReduceSinkOperator: counted too. */
    @Test
    void vectorizedReduceSinksAreCounted() {
        Operator<TableScanDesc> scan = OperatorFactory.get(context, new TableScanDesc(null));
        scan.getConf().setStatistics(new Statistics(6_000_000, 600_000_000, 0, 0));
        Operator<ReduceSinkDesc> sink = new VectorReduceSinkLongOperator(context);
        ReduceSinkDesc desc = new ReduceSinkDesc();
        desc.setStatistics(new Statistics(40_000, 800_000, 0, 0));
        sink.setConf(desc);
        scan.getChildOperators().add(sink);
        sink.getParentOperators().add(scan);
        MapWork work = new MapWork("Map 1");
        work.getAliasToWork().put("lineitem", scan);

        assertEquals(new StageSize(6_040_000 + StageSize.ROWS_PER_VERTEX), StageSize.of(List.of(work)));
    }

    /** A scan without statistics (Hive's MapReduce compiler does not annotate its plan): served as the largest. */
    @Test
    void aScanWithoutStatisticsIsUnknown() {
        MapWork annotated = scanThenShuffle("orders", 1_500_000, 150_000);
        MapWork plain = new MapWork("Map 2");
        plain.getAliasToWork().put("lineitem", OperatorFactory.get(context, new TableScanDesc(null)));

        StageSize size = StageSize.of(List.of(annotated, plain));

        assertEquals(StageSize.UNKNOWN, size);
        assertFalse(size.known());
        assertEquals(StageSize.UNKNOWN, StageSize.of(List.of()), "a stage with nothing to estimate by");
    }

    private MapWork scanThenShuffle(String table, long scanned, long shuffled) {
        Operator<TableScanDesc> scan = OperatorFactory.get(context, new TableScanDesc(null));
        scan.getConf().setStatistics(new Statistics(scanned, scanned * 100, 0, 0));
        Operator<ReduceSinkDesc> sink = OperatorFactory.get(context, new ReduceSinkDesc());
        sink.getConf().setStatistics(new Statistics(shuffled, shuffled * 20, 0, 0));
        scan.getChildOperators().add(sink);
        sink.getParentOperators().add(scan);
        MapWork work = new MapWork("Map of " + table);
        work.getAliasToWork().put(table, scan);
        return work;
    }
}
