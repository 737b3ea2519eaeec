package org.datampi.bench.tpch;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.datampi.bench.harness.Workload;
import org.datampi.hive.cli.HiveQlScript;

/**
 * One of the 22 queries of tpch-queries/: its statements (Q15 has a view around its query), with the scale-dependent
 * parameter FRACTION of Q11 (0.0001 / SF) filled in.
 *
 * @param number 1 to 22
 * @param statements in order; the last SELECT gives the query's result
 */
public record TpchQuery(int number, List<String> statements) {
    public TpchQuery {
        statements = List.copyOf(statements);
    }

    public static TpchQuery load(Path queryDir, int number, double scale) throws IOException {
        String text = Files.readString(queryDir.resolve(String.format(Locale.ROOT, "q%02d.sql", number)));
        // 0.0001 / SF has no finite decimal expansion for most scales (SF 3): 16 significant digits.
        String fraction = new BigDecimal("0.0001").divide(BigDecimal.valueOf(scale), MathContext.DECIMAL64)
                .stripTrailingZeros().toPlainString();
        return new TpchQuery(number, HiveQlScript.parse(text.replace("${hivevar:FRACTION}", fraction)).all());
    }

    /** As the benchmark runners time it: named qN, its rows the result. */
    public Workload workload() {
        return new Workload("q" + number, statements, Optional.empty());
    }

    /** Whether a statement is the one whose rows are the query's result. */
    public boolean isResult(String statement) {
        String first = statement.strip().toLowerCase(Locale.ROOT);
        return (first.startsWith("select") || first.startsWith("with")) && statement.equals(lastSelect());
    }

    private String lastSelect() {
        for (int i = statements.size() - 1; i >= 0; i--) {
            String first = statements.get(i).strip().toLowerCase(Locale.ROOT);
            if (first.startsWith("select") || first.startsWith("with")) {
                return statements.get(i);
            }
        }
        throw new IllegalStateException("Q" + number + " has no SELECT");
    }
}
