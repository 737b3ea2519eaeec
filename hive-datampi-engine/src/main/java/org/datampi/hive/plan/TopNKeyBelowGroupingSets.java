package org.datampi.hive.plan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.parse.SemanticException;
import org.apache.hadoop.hive.ql.plan.BaseWork;
import org.apache.hadoop.hive.ql.plan.GroupByDesc;
import org.apache.hadoop.hive.ql.plan.OperatorDesc;
import org.apache.hadoop.hive.ql.plan.TezWork;
import org.apache.hadoop.hive.ql.plan.TopNKeyDesc;

/**
 * Undoes, for datampi's DAG queries, a Hive 4.1 wrong answer that its Tez plans share: a GROUP BY with grouping
 * sets (ROLLUP, CUBE, GROUPING SETS) under ORDER BY ... LIMIT loses rows from its subtotals. Hive's Top-N key filter
 * ({@code hive.optimize.topnkey}, Tez plans only) keeps the rows whose sort key can still be among the first N;
 * {@code TopNKeyPushdownProcessor.pushdownThroughGroupBy} pushes a copy of it below a GROUP BY when the keys share a
 * prefix, and in Hive 4.1 no longer skips one with grouping sets (its doc still says "No grouping sets"). Below the
 * GROUP BY that expands each row into its grouping sets, the filter drops input rows whose own keys are not among
 * the first N, but which a subtotal row (its key columns NULL) needs: TPC-DS q5, q14 and q80 came out with wrong
 * subtotals, differently on Hive on Tez.
 *
 * <p>The bend is the narrowest there is: every Top-N key operator upstream of a GROUP BY with grouping sets, in the
 * same vertex, is taken out of the plan after compilation; the plan is otherwise Hive's. A Top-N key filter only
 * saves work (the LIMIT above it does the limiting, and the reduce sink's own top-N is off once a filter took its
 * place), so taking one out never changes an answer. {@code TpcdsAnswersIT} fails on those queries without it.
 */
final class TopNKeyBelowGroupingSets {
    private TopNKeyBelowGroupingSets() {
    }

    /** Removes the work's Top-N key operators that feed a GROUP BY with grouping sets; returns how many. */
    static int remove(TezWork work) throws SemanticException {
        int removed = 0;
        for (BaseWork vertex : work.getAllWork()) {
            // Row-mode and vectorized operators alike (VectorTopNKeyOperator is no TopNKeyOperator): by their desc.
            List<Operator<?>> wrong = new ArrayList<>();
            for (Operator<? extends OperatorDesc> operator : vertex.getAllOperators()) {
                if (operator.getConf() instanceof TopNKeyDesc && feedsGroupingSets(operator)) {
                    wrong.add(operator);
                }
            }
            for (Operator<?> topNKey : wrong) {
                // A pushed-down copy sits between operators; Hive's own removal keeps its parent's other children.
                topNKey.getParentOperators().get(0).removeChildAndAdoptItsChildren(topNKey);
                removed++;
            }
        }
        return removed;
    }

    private static boolean feedsGroupingSets(Operator<?> topNKey) {
        Set<Operator<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Operator<?>> pending = new ArrayDeque<>(topNKey.getChildOperators());
        while (!pending.isEmpty()) {
            Operator<?> operator = pending.pop();
            if (!seen.add(operator)) {
                continue;
            }
            if (operator.getConf() instanceof GroupByDesc groupBy && groupBy.isGroupingSetsPresent()) {
                return true;
            }
            if (operator.getChildOperators() != null) {
                pending.addAll(operator.getChildOperators());
            }
        }
        return false;
    }
}
