package org.datampi.hive.dag;

import java.util.List;
import java.util.Map;

import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.hive.ql.plan.BaseWork;
import org.apache.hadoop.hive.ql.plan.ReduceSinkDesc.ReducerTraits;
import org.apache.hadoop.hive.ql.plan.ReduceSinkDesc;
import org.apache.hadoop.hive.ql.plan.TezEdgeProperty;
import org.apache.hadoop.hive.ql.plan.TezWork;
import org.apache.hadoop.hive.ql.plan.UnionWork;
import org.apache.tez.dag.api.records.DAGProtos.VertexPlan;
import org.datampi.hive.conf.JobPlan;

/** The task counts of a DAG's vertices fed by edges only (Hive's reducers), decided on the client. */
final class ReducerTasks {
    /**
     * Tasks per rank an estimated count is cut to (unless its largest source has more): enough for ranks to even out
     * unequal tasks and to keep each task's input within its memory as the data grows, few enough that a task's fixed
     * cost (some 10 ms on a warm rank) stays small.
     */
    static final int ESTIMATED_TASKS_PER_RANK = 4;

    private ReducerTasks() {
    }

    /**
     * The tasks of a vertex fed by edges only, as the mapreduce shape decides its A tasks (JobPlan,
     * hive.datampi.parallelism; enhanced: as many as its largest input vertex's, one for a leaf): a count Hive
     * estimated (256 MB per reducer, for a cluster with many more reducer slots than stages) is raised to one per
     * rank; a count Hive fixed (ORDER BY, bucketing, mapreduce.job.reduces) is kept. An estimated count is first cut
     * to {@link #estimatedBound}. A source pruned while the DAG runs counts as one task per rank. The destination of
     * a one-to-one edge has its source's tasks; a cross product's, whose count Hive leaves to Tez's vertex manager, is
     * counted as an estimated one.
     */
    static int count(HiveConf conf, TezWork work, VertexPlan vertex, Map<String, List<DagVertex.VertexTask>> tasks,
            Map<String, SplitRequest> splitRequests, int ranks) throws HiveException {
        BaseWork unit = work.getAllWork().stream().filter(w -> w.getName().equals(vertex.getName())).findFirst()
                .orElseThrow();
        for (BaseWork parent : work.getParents(unit)) {
            if (work.getEdgeProperty(parent, unit).getEdgeType() == TezEdgeProperty.EdgeType.ONE_TO_ONE_EDGE) {
                // Source task t feeds task t alone.
                SplitRequest pruned = splitRequests.get(parent.getName());
                if (parent instanceof UnionWork || pruned != null && pruned.pruned()) {
                    throw new HiveException("datampi's DAG mode does not run the one-to-one edge from "
                            + parent.getName() + " to " + unit.getName() + " yet: its tasks are not known before "
                            + "the DAG runs");
                }
                return tasks.get(parent.getName()).size();
            }
        }
        int hiveTasks = vertex.getTaskConfig().getNumTasks();
        // Hive leaves a cross product's task count to Tez's vertex manager: here it is ours to choose.
        boolean ours = hiveTasks < 1 && work.getParents(unit).stream().anyMatch(parent ->
                work.getEdgeProperty(parent, unit).getEdgeType() == TezEdgeProperty.EdgeType.XPROD_EDGE);
        if (ours) {
            hiveTasks = 1;
        } else if (hiveTasks < 1) {
            throw new HiveException("datampi's DAG mode needs a fixed task count for " + vertex.getName() + " (got "
                    + hiveTasks + ")");
        }
        int sourceTasks = 1;
        boolean estimated = true;
        for (BaseWork parent : work.getParents(unit)) {
            TezEdgeProperty.EdgeType type = work.getEdgeProperty(parent, unit).getEdgeType();
            if (type == TezEdgeProperty.EdgeType.CONTAINS) {
                // The vertex is a member of the union (its rows are the union's), not fed by it.
                continue;
            }
            // A union's members send to the vertex as one input.
            List<BaseWork> senders = parent instanceof UnionWork ? HiveDagPlan.unionMembers(work, parent)
                    : List.of(parent);
            for (BaseWork sender : senders) {
                // A vertex pruned while the DAG runs has no task count yet: one per rank, as for most scans.
                SplitRequest pruned = splitRequests.get(sender.getName());
                sourceTasks = Math.max(sourceTasks, pruned != null && pruned.pruned() ? ranks
                        : tasks.get(sender.getName()).size());
                estimated &= type == TezEdgeProperty.EdgeType.SIMPLE_EDGE && estimated(sender, unit.getName());
            }
        }
        if (estimated && !ours) {
            hiveTasks = estimatedBound(hiveTasks, sourceTasks, ranks);
        }
        // Enhanced parallelism gives the query's last vertex (one writing, not feeding another) one task, as the
        // last stage of a query in the mapreduce shape.
        boolean last = work.getChildren(unit).isEmpty();
        return JobPlan.of(conf, ranks, sourceTasks, hiveTasks, !(estimated || ours), last).aTasks();
    }

    /**
     * An estimated count cut to {@link #ESTIMATED_TASKS_PER_RANK} tasks per rank, or to the largest source's tasks
     * where it has more. Hive's Tez compiler estimates reducers from its statistics, which after a join or two can be
     * off by orders of magnitude (TPC-DS q17: 24 billion rows where one reached the reducer, so 1,009 tasks, 13 s of
     * ranks running tasks of nothing); on Tez the count is an upper bound that its vertex manager lowers to what the
     * sources wrote, when a user turns hive.tez.auto.reducer.parallelism on. The ranks plan every task before the DAG
     * runs, so the bound replaces the vertex manager's look at the sources' output.
     */
    static int estimatedBound(int hiveTasks, int sourceTasks, int ranks) {
        return Math.min(hiveTasks, Math.max(sourceTasks, ESTIMATED_TASKS_PER_RANK * ranks));
    }

    /** Whether Hive estimated the task count of the vertex CHILD from PARENT's reduce sinks (they may change it). */
    private static boolean estimated(BaseWork parent, String child) {
        // Row-mode and vectorized reduce sinks alike (a VectorReduceSinkOperator is no ReduceSinkOperator).
        List<ReduceSinkDesc> sinks = parent.getAllOperators().stream().map(Operator::getConf)
                .filter(ReduceSinkDesc.class::isInstance).map(ReduceSinkDesc.class::cast)
                .filter(sink -> child.equals(sink.getOutputName())).toList();
        return !sinks.isEmpty() && sinks.stream()
                .allMatch(sink -> sink.getReducerTraits().contains(ReducerTraits.AUTOPARALLEL));
    }
}
