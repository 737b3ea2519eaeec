package org.datampi.hive.exec;

import org.apache.hadoop.hive.ql.exec.tez.TezTask;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.datampi.hive.session.DataMPIEngine;
import org.datampi.hive.session.DataMPISettings;

/**
 * The task Hive builds for a TezWork (a DAG of MapWork, ReduceWork and MergeJoinWork vertices), through Hive's
 * work-to-task table (DataMPIEngine). It has to be a TezTask: Hive's Tez compiler casts the tasks it builds to
 * TezTask and tests for it (GenTezProcContext, Vectorizer, MemoryDecider, SemanticAnalyzer), EXPLAIN included.
 *
 * <p>For a query compiled with {@code hive.datampi.plan=dag} (DataMPIEngine.compileAsDag) the DAG is datampi's to
 * run; running it on the ranks is docs/dag-mode.md's next step, so until then such a query stops here with an error
 * that says so, before anything is read or written (EXPLAIN shows the DAG). Any other TezTask (a session on Tez)
 * is Hive's own.
 */
public class DataMPIDagTask extends TezTask {
    private static final long serialVersionUID = 1L;

    @Override
    public int execute() {
        if (!DataMPIEngine.isDatampiDag(conf)) {
            return super.execute();
        }
        String message = "datampi: " + getId() + " is a DAG of " + getWork().getAllWork().size() + " vertices ("
                + DataMPISettings.PLAN + "=dag); running DAGs on the ranks is not built yet (docs/dag-mode.md): "
                + "EXPLAIN shows the plan; SET " + DataMPISettings.PLAN + "=mapreduce runs the query";
        console.printError(message);
        setException(new HiveException(message));
        return 1;
    }
}
