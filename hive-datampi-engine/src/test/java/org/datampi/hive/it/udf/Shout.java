package org.datampi.hive.it.udf;

import java.util.Locale;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.Text;

/** A user's UDF, for the query corpus (QueryCorpus): the ranks know it only from the jar the session ADDs. */
public final class Shout extends UDF {
    public Text evaluate(Text text) {
        return text == null ? null : new Text(text.toString().toUpperCase(Locale.ROOT) + "!");
    }
}
