package org.datampi.bench.hs2;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.Text;

/**
 * The soak's user function, reached by HiveServer2 and the ranks only through ADD JAR of a jar the soak writes (this
 * class alone: HiveServer2's classpath does not have the benchmarks' jar), as a user's own function is. Each such
 * session loads it in a class loader of its own, which a soak must see go again.
 */
public final class SoakUdf extends UDF {
    public Text evaluate(Text value) {
        return value == null ? null : new Text("soak:" + value);
    }
}
