package org.datampi.hive.exec;

import org.apache.hadoop.hive.ql.session.SessionState.LogHelper;
import org.slf4j.Logger;

/**
 * The console of a MapReduce-shaped datampi stage: Hive's own, without the two lines Hive's MapReduce job helper
 * (HadoopJobExecHelper.jobInfo) prints for a YARN job that are wrong for a datampi one: ", Tracking URL = " with no
 * URL after it (a datampi job has no web page; its rank logs are named after the stage), and
 * {@code Kill Command = mapred job -kill job_datampi...}, which reaches no datampi job (Ctrl-C in the shell, or the
 * client's cancel, stops a stage). Both still go to Hive's log. Hive changing those lines makes them show again,
 * which is harmless.
 */
final class MapReduceConsole extends LogHelper {
    private static final String TRACKING_URL = ", Tracking URL = ";
    private static final String KILL_COMMAND = "Kill Command = ";

    private final Logger log;

    MapReduceConsole(Logger log, boolean silent) {
        super(log, silent);
        this.log = log;
    }

    @Override
    public void printInfo(String info, String detail, boolean isSilent) {
        if (info != null && info.startsWith(KILL_COMMAND)) {
            log.info("{} (not shown: datampi stages stop on Ctrl-C or cancel)", info);
            return;
        }
        if (info != null && info.endsWith(TRACKING_URL)) {
            super.printInfo(info.substring(0, info.length() - TRACKING_URL.length()), detail, isSilent);
            return;
        }
        super.printInfo(info, detail, isSilent);
    }
}
