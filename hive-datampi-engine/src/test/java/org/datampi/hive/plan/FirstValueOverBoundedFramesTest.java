package org.datampi.hive.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.parse.ParseDriver;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which statements FirstValueOverBoundedFrames runs without Hive's vectorized PTF (the AST only: no tables). */
class FirstValueOverBoundedFramesTest {
    private static final String FROM = " FROM (SELECT 1 AS p, 2 AS o, 3 AS v) t";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "RANGE, n PRECEDING to CURRENT ROW | true | first_value(v) OVER (PARTITION BY p ORDER BY o RANGE BETWEEN 5 "
                + "PRECEDING AND CURRENT ROW)",
        "RANGE n PRECEDING (short form) | true | FIRST_VALUE(v) OVER (PARTITION BY p ORDER BY o RANGE 5 PRECEDING)",
        "ROWS, CURRENT ROW to UNBOUNDED FOLLOWING | true | first_value(v) OVER (PARTITION BY p ORDER BY o ROWS "
                + "BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)",
        "a named window | true | first_value(v) OVER w FROM (SELECT 1 AS p, 2 AS o, 3 AS v) s WINDOW w AS "
                + "(PARTITION BY p ORDER BY o ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)",
        "the default frame | false | first_value(v) OVER (PARTITION BY p ORDER BY o)",
        "an unbounded start | false | first_value(v) OVER (PARTITION BY p ORDER BY o ROWS BETWEEN UNBOUNDED "
                + "PRECEDING AND 2 FOLLOWING)",
        "sum over a bounded frame | false | sum(v) OVER (PARTITION BY p ORDER BY o RANGE BETWEEN 5 PRECEDING AND "
                + "CURRENT ROW)",
        "last_value over a bounded frame | false | last_value(v) OVER (PARTITION BY p ORDER BY o ROWS BETWEEN 1 "
                + "PRECEDING AND CURRENT ROW)"})
    void aFirstValueAndABoundedStartTurnTheVectorizedPtfOff(String frame, boolean avoided, String select)
            throws Exception {
        HiveConf query = new HiveConf();
        String statement = "SELECT p, o, " + select + (select.contains(" FROM ") ? "" : FROM);
        boolean did = FirstValueOverBoundedFrames.avoid(new ParseDriver().parse(statement, query).getTree(), query,
                "default");
        assertEquals(avoided, did, statement);
        assertEquals(!avoided, query.getBoolean(FirstValueOverBoundedFrames.SETTING, true), statement);
    }
}
