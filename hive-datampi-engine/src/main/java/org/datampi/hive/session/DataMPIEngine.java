package org.datampi.hive.session;

import java.lang.reflect.Field;
import java.util.LinkedHashSet;
import java.util.Set;

import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.conf.Validator;
import org.apache.hadoop.hive.ql.exec.TaskFactory;
import org.apache.hadoop.hive.ql.plan.MapredWork;
import org.apache.hadoop.hive.ql.processors.SetProcessor;
import org.datampi.hive.exec.DataMPITask;

/**
 * The one place where unmodified Hive 4.1 is bent to accept the datampi engine. {@link #install()} does three things:
 *
 * <ol>
 * <li>adds "datampi" to the values {@code SET hive.execution.engine=...} accepts. Hive validates that setting
 * against a fixed set (tez, mr) held in a private final field of {@code HiveConf.ConfVars}; the only way to widen it
 * without turning off validation for every key ({@code hive.conf.validation=false}) is to replace that validator,
 * here by reflection, with the same set plus "datampi". A misspelled engine is still refused.</li>
 * <li>makes Hive build a {@link DataMPITask} wherever it builds a MapRedTask, through Hive's public work-to-task table
 * ({@code TaskFactory.taskvec}). A DataMPITask runs on the datampi engine when the session's engine is datampi,
 * and exactly as a MapRedTask otherwise, so that a session can switch between mr and datampi.</li>
 * <li>lets {@code SET} take the hive.datampi.* settings ({@link DataMPISettings}). With hive.conf.validation on,
 * Hive refuses unknown hive.* keys except those in SetProcessor's set of accepted non-HiveConf keys, through which
 * Hive itself admits ORC's settings; ours are added to it, again by reflection.</li>
 * </ol>
 *
 * All are idempotent and process-wide. Hive's compiler takes its MapReduce path for any engine but "tez", which is
 * the MapWork/ReduceWork plan that datampi's O and A tasks run.
 */
public final class DataMPIEngine {
    public static final String NAME = "datampi";

    private DataMPIEngine() {
    }

    public static synchronized void install() {
        acceptEngineName();
        acceptSettings();
        for (TaskFactory.TaskTuple<?> tuple : TaskFactory.taskvec) {
            if (tuple.workClass == MapredWork.class) {
                @SuppressWarnings("unchecked")
                TaskFactory.TaskTuple<MapredWork> mapred = (TaskFactory.TaskTuple<MapredWork>) tuple;
                mapred.taskClass = DataMPITask.class;
            }
        }
    }

    /** Whether the session configuration selects this engine. */
    public static boolean isSelected(HiveConf conf) {
        return NAME.equalsIgnoreCase(HiveConf.getVar(conf, HiveConf.ConfVars.HIVE_EXECUTION_ENGINE));
    }

    @SuppressWarnings("unchecked")
    private static void acceptSettings() {
        try {
            Field accepted = SetProcessor.class.getDeclaredField("removedConfigs");
            accepted.setAccessible(true);
            ((Set<String>) accepted.get(null)).addAll(DataMPISettings.ALL);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("Cannot register the hive.datampi.* settings with this Hive version ("
                    + "SetProcessor has no set of accepted keys): " + e, e);
        }
    }

    private static void acceptEngineName() {
        HiveConf.ConfVars engine = HiveConf.ConfVars.HIVE_EXECUTION_ENGINE;
        if (!(engine.getValidator() instanceof Validator.StringSet current)
                || current.getExpected().contains(NAME)) {
            return;
        }
        Set<String> accepted = new LinkedHashSet<>(current.getExpected());
        accepted.add(NAME);
        try {
            Field validator = HiveConf.ConfVars.class.getDeclaredField("validator");
            validator.setAccessible(true);
            validator.set(engine, new Validator.StringSet(true, accepted.toArray(String[]::new)));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("Cannot register the datampi engine with this Hive version ("
                    + "HiveConf.ConfVars.HIVE_EXECUTION_ENGINE has no replaceable validator): " + e, e);
        }
    }
}
