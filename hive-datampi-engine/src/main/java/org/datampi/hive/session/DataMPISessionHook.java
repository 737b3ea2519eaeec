package org.datampi.hive.session;

import org.apache.hive.service.cli.session.HiveSessionHook;
import org.apache.hive.service.cli.session.HiveSessionHookContext;
import org.datampi.hive.plan.DataMPIEngine;

/**
 * For HiveServer2: set {@code hive.server2.session.hook=org.datampi.hive.session.DataMPISessionHook} so that every
 * Beeline/JDBC session can {@code SET hive.execution.engine=datampi}.
 */
public final class DataMPISessionHook implements HiveSessionHook {
    @Override
    public void run(HiveSessionHookContext context) {
        DataMPIEngine.install(context.getSessionConf());
    }
}
