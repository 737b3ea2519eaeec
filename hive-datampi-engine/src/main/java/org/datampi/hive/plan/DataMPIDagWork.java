package org.datampi.hive.plan;

import static java.util.Objects.requireNonNull;

import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.plan.BaseWork;
import org.apache.hadoop.hive.ql.plan.Explain;
import org.apache.hadoop.hive.ql.plan.Explain.Level;
import org.apache.hadoop.hive.ql.plan.Explain.Vectorization;
import org.apache.hadoop.hive.ql.plan.TezWork;

/**
 * A DAG stage as datampi runs it (hive.datampi.plan=dag): the vertices and edges of the TezWork Hive's Tez compiler
 * built, unchanged and shared, in a work of its own so that EXPLAIN names it "DataMPI DAG" instead of "Tez" and says
 * how the vertices run. Hive's Tez compiler keeps casting the stage's work to TezWork, which this still is.
 */
@Explain(displayName = "DataMPI DAG", explainLevels = {Level.USER, Level.DEFAULT, Level.EXTENDED},
        vectorization = Vectorization.SUMMARY_PATH)
public final class DataMPIDagWork extends TezWork {
    private static final long serialVersionUID = 1L;

    private DataMPIDagWork(String queryId, HiveConf conf) {
        super(queryId, conf);
    }

    /**
     * The same DAG: every vertex (union vertices included) with its vertex type, and every edge with its property,
     * each vertex's inputs in the compiled order (a merge join's inputs keep their positions).
     */
    public static DataMPIDagWork of(TezWork compiled, HiveConf conf) {
        requireNonNull(compiled, "compiled is null");
        String dagId = compiled.getDagId();
        // TezWork's DAG id is the query id, a colon and a JVM-wide count.
        DataMPIDagWork work = new DataMPIDagWork(dagId.substring(0, dagId.lastIndexOf(':')), conf);
        for (BaseWork vertex : compiled.getAllWork()) {
            work.add(vertex);
            if (compiled.getVertexType(vertex) != null) {
                work.setVertexType(vertex, compiled.getVertexType(vertex));
            }
        }
        for (BaseWork vertex : compiled.getAllWork()) {
            for (BaseWork input : compiled.getParents(vertex)) {
                work.connect(input, vertex, compiled.getEdgeProperty(input, vertex));
            }
        }
        return work;
    }

    @Explain(displayName = "Runs on", explainLevels = {Level.USER, Level.DEFAULT, Level.EXTENDED})
    public String getRunsOn() {
        return "the session's datampi ranks, every edge a datampi shuffle, nothing written between vertices";
    }
}
