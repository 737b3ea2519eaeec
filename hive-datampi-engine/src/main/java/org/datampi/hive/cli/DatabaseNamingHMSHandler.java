package org.datampi.hive.cli;

import java.io.IOException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Optional;
import java.util.Properties;

import org.apache.commons.lang3.exception.ExceptionUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.IHMSHandler;
import org.apache.hadoop.hive.metastore.RetryingHMSHandler;
import org.apache.hadoop.hive.metastore.api.MetaException;
import org.apache.hadoop.hive.metastore.api.NoSuchObjectException;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf.ConfVars;

/**
 * Hive's {@link RetryingHMSHandler} whose failed calls name the metastore's database when it cannot be reached, set
 * by MetastoreServer through Hive's own {@code metastore.hmshandler.proxy}: every Thrift call passes here.
 *
 * <p>Why: a lost database does not reach the caller as such. DataNucleus turns a connection that cannot be had, on a
 * query of a model class it has not used yet, into a query with no candidates (rdbms 6.0's JDOQLQuery logs "resulted
 * in no possible candidates" and returns nothing), so Hive's handler answers {@code get_table} with "table not found"
 * and a client with "Table not found 't1'"; once the class is known it fails with the pool's "Connection is not
 * available", which does not say which database either. So when a call fails with either exception, the database is
 * tried once over JDBC, and if that fails too the call fails with a MetaException naming it and the cause. A call
 * that fails while the database answers (a table that does not exist) keeps its own exception: that costs one
 * connection to PostgreSQL on the metastore's host, a few milliseconds.
 *
 * <p>No fields: Hive's constructor already calls {@link #invoke} (for the handler's init) before a subclass's fields
 * would be set.
 */
public final class DatabaseNamingHMSHandler extends RetryingHMSHandler {
    /** Seconds the probe waits to connect and to log in: the pool's own wait has already passed. */
    private static final String PROBE_SECONDS = "3";

    public DatabaseNamingHMSHandler(Configuration conf, IHMSHandler baseHandler, boolean local)
            throws MetaException {
        super(conf, baseHandler, local);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        try {
            return super.invoke(proxy, method, args);
        } catch (NoSuchObjectException | MetaException e) {
            if (!declaresMetaException(method)) {
                throw e;
            }
            Optional<String> unreachable = unreachable(origConf);
            if (unreachable.isEmpty()) {
                throw e;
            }
            MetaException named = new MetaException(unreachable.get());
            named.initCause(e);
            throw named;
        }
    }

    /** Why the metastore's database (CONF's JDBC URL, user and password) cannot be reached; empty when it can. */
    static Optional<String> unreachable(Configuration conf) {
        String url = MetastoreConf.getVar(conf, ConfVars.CONNECT_URL_KEY);
        Properties properties = new Properties();
        properties.setProperty("user", MetastoreConf.getVar(conf, ConfVars.CONNECTION_USER_NAME));
        properties.setProperty("connectTimeout", PROBE_SECONDS);
        properties.setProperty("loginTimeout", PROBE_SECONDS);
        try {
            properties.setProperty("password", MetastoreConf.getPassword(conf, ConfVars.PWD));
        } catch (IOException e) {
            return Optional.of(message(url, "its password could not be read: " + e.getMessage()));
        }
        try (Connection connection = DriverManager.getConnection(url, properties)) {
            return connection.isValid(Integer.parseInt(PROBE_SECONDS)) ? Optional.empty()
                    : Optional.of(message(url, "a new connection to it is not valid"));
        } catch (SQLException e) {
            return Optional.of(message(url, ExceptionUtils.getRootCauseMessage(e)));
        }
    }

    private static String message(String url, String cause) {
        return "The Hive Metastore's database " + url + " cannot be reached: " + cause;
    }

    /** Whether METHOD may throw a MetaException (every Thrift call: they declare it or TException). */
    private static boolean declaresMetaException(Method method) {
        return Arrays.stream(method.getExceptionTypes()).anyMatch(type -> type.isAssignableFrom(MetaException.class));
    }
}
