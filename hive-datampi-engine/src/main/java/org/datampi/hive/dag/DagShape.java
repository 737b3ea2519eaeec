package org.datampi.hive.dag;

import java.util.EnumSet;
import java.util.Set;

import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.hive.ql.plan.BaseWork;
import org.apache.hadoop.hive.ql.plan.MapWork;
import org.apache.hadoop.hive.ql.plan.MergeJoinWork;
import org.apache.hadoop.hive.ql.plan.TezEdgeProperty;
import org.apache.hadoop.hive.ql.plan.TezWork;
import org.apache.tez.dag.api.records.DAGProtos.DAGPlan;
import org.apache.tez.dag.api.records.DAGProtos.VertexPlan;

/**
 * What the ranks run of Hive's Tez plans (docs/dag-mode.md): the rest is refused before anything is read or written,
 * with an error naming the vertex or edge and the way to run the query.
 */
final class DagShape {
    private DagShape() {
    }

    /** Refuses, before anything is read or written, what the ranks do not run yet, naming it. */
    static void check(TezWork work) throws HiveException {
        String refusal = "datampi's DAG mode does not run %s yet (docs/dag-mode.md); EXPLAIN shows the DAG; SET "
                + "hive.datampi.plan=mapreduce runs the query";
        for (BaseWork unit : work.getAllWork()) {
            // A merge join in a reduce vertex reads two sorted edges, which the ranks run; one in a map vertex
            // (a sort-merge bucket join, turned off for DAG queries) reads two tables' buckets side by side.
            if (unit instanceof MergeJoinWork merge && merge.getMainWork() instanceof MapWork) {
                throw new HiveException(String.format(refusal, "the sort-merge join of map vertex " + unit.getName()));
            }
            for (BaseWork child : work.getChildren(unit)) {
                TezEdgeProperty.EdgeType type = work.getEdgeProperty(unit, child).getEdgeType();
                if (!RUN_EDGES.contains(type) && type != TezEdgeProperty.EdgeType.CONTAINS) {
                    throw new HiveException(String.format(refusal, "the " + type + " from " + unit.getName()
                            + " to " + child.getName()));
                }
            }
        }
    }

    /** Map vertices of one root input (a table's splits): several (a sort-merge bucket join's) are refused. */
    static void checkRootInputs(DAGPlan plan) throws HiveException {
        for (VertexPlan vertex : plan.getVertexList()) {
            if (vertex.getInputsCount() > 1) {
                throw new HiveException("datampi's DAG mode runs map vertices of one root input so far; "
                        + vertex.getName() + " has " + vertex.getInputsCount());
            }
        }
    }

    private static final Set<TezEdgeProperty.EdgeType> RUN_EDGES = EnumSet.of(TezEdgeProperty.EdgeType.SIMPLE_EDGE,
            TezEdgeProperty.EdgeType.BROADCAST_EDGE, TezEdgeProperty.EdgeType.CUSTOM_SIMPLE_EDGE,
            TezEdgeProperty.EdgeType.ONE_TO_ONE_EDGE, TezEdgeProperty.EdgeType.XPROD_EDGE,
            TezEdgeProperty.EdgeType.CUSTOM_EDGE);
}
