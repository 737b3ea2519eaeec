package org.datampi.hive.plan;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.exec.ConditionalTask;
import org.apache.hadoop.hive.ql.exec.ExplainTask;
import org.apache.hadoop.hive.ql.exec.Task;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.apache.hadoop.hive.ql.parse.AbstractSemanticAnalyzerHook;
import org.apache.hadoop.hive.ql.parse.HiveSemanticAnalyzerHookContext;
import org.apache.hadoop.hive.ql.parse.SemanticException;
import org.apache.hadoop.hive.ql.plan.MapredWork;
import org.apache.hadoop.hive.ql.plan.TezWork;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.datampi.hive.conf.DataMPISettings;
import org.datampi.hive.exec.DataMPIDagTask;
import org.datampi.hive.exec.DataMPITask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first and last steps of compiling a query for datampi (hive.semantic.analyzer.hook). First, every datampi
 * setting is checked (DataMPISettings.validate): a wrong one is refused before anything compiles. Then, with
 * {@code hive.datampi.plan=dag}, the query is made to compile with Hive's Tez compiler ({@link
 * DataMPIEngine#compileAsDag}); its TezTasks are then {@link DataMPIDagTask}s, whose TezWork becomes a {@link
 * DataMPIDagWork} (EXPLAIN names it). Otherwise Hive's MapReduce compiler has built the task tree, with a {@link
 * DataMPITask} for every MapReduce-shaped stage (see DataMPIEngine), including those inside ConditionalTasks, behind
 * map-join local tasks and under EXPLAIN. This turns each stage's MapredWork into a {@link DataMPIWork}, which
 * EXPLAIN shows with its O and A task counts; the counts themselves are decided when the stage is submitted, once its
 * input splits are known (JobPlan). A query compiled as a DAG that has no Tez stage after all (a fetch task, DDL) runs
 * in the client as on the session's engine ({@link DataMPIEngine#runWithoutDag}). Two of Hive's wrong answers on Tez
 * plans are kept from DAG queries here: {@link FirstValueOverBoundedFrames} before and after compiling, {@link
 * TopNKeyBelowGroupingSets} after.
 */
public final class DataMPICompiler extends AbstractSemanticAnalyzerHook {
    private static final Logger LOG = LoggerFactory.getLogger(DataMPICompiler.class);

    @Override
    public ASTNode preAnalyze(HiveSemanticAnalyzerHookContext context, ASTNode ast) throws SemanticException {
        SessionState session = SessionState.get();
        HiveConf conf = session == null ? null : session.getConf();
        if (conf == null || !DataMPISettings.engineSelected(conf)) {
            return ast;
        }
        try {
            // HiveServer2's SET has no hook: a wrong value is refused here, before the statement compiles.
            DataMPISettings.validate(conf);
        } catch (IllegalArgumentException e) {
            throw new SemanticException("datampi: " + e.getMessage(), e);
        }
        boolean dag = DataMPISettings.PlanShape.of(conf) == DataMPISettings.PlanShape.DAG;
        if (context.getConf() instanceof HiveConf own && own != conf) {
            DataMPIEngine.useIoCache(own, dag);
        }
        if (!dag) {
            return ast;
        }
        if (!(context.getConf() instanceof HiveConf query)) {
            throw new SemanticException(DataMPISettings.PLAN + "=dag needs the query's configuration as a HiveConf, "
                    + "which this Hive version does not give the semantic analyzer hook");
        }
        if (query == conf) {
            // A query Hive runs on its session's configuration itself (QueryState's nonIsolated(): the compactor's
            // queries, through DriverUtils.runOnDriver): the engine name cannot change for it alone, so it runs in
            // the mapreduce shape, as Hive's MapReduce compiler plans it for any engine but tez.
            LOG.info("A query without its own configuration runs in the mapreduce shape: {}",
                    context.getCommand());
            return ast;
        }
        DataMPIEngine.compileAsDag(query);
        if (FirstValueOverBoundedFrames.avoid(ast, query, session.getCurrentDatabase())) {
            LOG.info("first_value over a bounded frame: {}=false for this query", FirstValueOverBoundedFrames.SETTING);
        }
        return ast;
    }

    @Override
    public void postAnalyze(HiveSemanticAnalyzerHookContext context, List<Task<?>> rootTasks)
            throws SemanticException {
        SessionState session = SessionState.get();
        HiveConf conf = session == null ? null : session.getConf();
        if (conf == null || !DataMPISettings.engineSelected(conf)) {
            return;
        }
        DataMPISettings.Parallelism parallelism = DataMPISettings.Parallelism.of(conf);
        HiveConf query = context.getConf() instanceof HiveConf own ? own : conf;
        Set<Task<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Task<?>> pending = new ArrayDeque<>(rootTasks);
        boolean dagStage = false;
        while (!pending.isEmpty()) {
            Task<?> task = pending.pop();
            if (!seen.add(task)) {
                continue;
            }
            if (task instanceof DataMPITask stage && stage.getWork().getClass() == MapredWork.class) {
                stage.setWork(DataMPIWork.of(stage.getWork(), parallelism));
            }
            if (task instanceof DataMPIDagTask dag && dag.getWork().getClass() == TezWork.class) {
                // (On a session on datampi, a DataMPIDagTask comes only from a query compiled as a DAG.)
                TopNKeyBelowGroupingSets.remove(dag.getWork());
                FirstValueOverBoundedFrames.refuseIfLeft(dag.getWork());
                dag.setWork(DataMPIDagWork.of(dag.getWork(), query));
            }
            dagStage |= task instanceof DataMPIDagTask;
            if (task instanceof ConditionalTask conditional && conditional.getListTasks() != null) {
                pending.addAll(conditional.getListTasks());
            }
            if (task instanceof ExplainTask explain && explain.getWork().getRootTasks() != null) {
                pending.addAll(explain.getWork().getRootTasks());
            }
            if (task.getChildTasks() != null) {
                pending.addAll(task.getChildTasks());
            }
            if (task.getBackupTask() != null) {
                pending.add(task.getBackupTask());
            }
        }
        if (!dagStage && query != conf && DataMPISettings.PlanShape.of(conf) == DataMPISettings.PlanShape.DAG) {
            DataMPIEngine.runWithoutDag(query, conf);
        }
    }
}
