package org.datampi.bench.it.udf;

import java.util.Locale;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.Text;

/** A user's UDF for ClusterSimIT: no rank's classpath has it; they get it from the jar the session ADDs. */
public final class Shout extends UDF {
    public Text evaluate(Text text) {
        return text == null ? null : new Text(text.toString().toUpperCase(Locale.ROOT) + "!");
    }
}
