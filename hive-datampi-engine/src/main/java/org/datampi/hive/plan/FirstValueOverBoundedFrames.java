package org.datampi.hive.plan;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.lib.Node;
import org.apache.hadoop.hive.ql.metadata.Hive;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.hive.ql.metadata.Table;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.apache.hadoop.hive.ql.parse.HiveParser;
import org.apache.hadoop.hive.ql.parse.ParseDriver;
import org.apache.hadoop.hive.ql.parse.ParseException;
import org.apache.hadoop.hive.ql.parse.SemanticException;
import org.apache.hadoop.hive.ql.plan.BaseWork;
import org.apache.hadoop.hive.ql.plan.OperatorDesc;
import org.apache.hadoop.hive.ql.plan.PTFDesc;
import org.apache.hadoop.hive.ql.plan.TezWork;
import org.apache.hadoop.hive.ql.plan.VectorPTFDesc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps datampi's DAG queries from a Hive 4.1 wrong answer that its Tez plans share: {@code first_value} over a
 * window frame whose start is bounded ({@code RANGE BETWEEN 5 PRECEDING AND CURRENT ROW}, {@code ROWS BETWEEN CURRENT
 * ROW AND UNBOUNDED FOLLOWING}) gives every row its partition's first value when the reduce side is vectorized.
 * Hive's Vectorizer accepts such a frame for it (validatePTFOperator checks the frame's end only), and
 * VectorPTFDesc.getEvaluator always picks the streaming VectorPTFEvaluator{Long,Double,Decimal}FirstValue, which
 * never reads the frame; the frame-aware evaluators it picks for sum, min, max and avg are right. Hive on MR, which
 * vectorizes no reduce side, is right; Hive's golden output of windowing_decimal.q on Tez has the wrong values (found
 * by bin/hive-compat against Hive on MR).
 *
 * <p>The bend: before a DAG query compiles, when it, or a view it reads, calls first_value and has a frame with a
 * bounded start, Hive's vectorized PTF is off for that query alone ({@value #SETTING}=false: the reduce vertex that
 * holds the PTF runs row by row, map vertices and other reduce vertices stay vectorized). It over-matches (a
 * first_value over an unbounded frame beside another function's bounded one), which costs only speed. A view it
 * cannot read or parse (one another engine made) is not looked into. After compiling, a plan that still has a
 * vectorized first_value over a bounded-start frame (a way in that the statement does not show) is refused, naming
 * the setting, rather than run to a wrong answer.
 */
final class FirstValueOverBoundedFrames {
    private static final Logger LOG = LoggerFactory.getLogger(FirstValueOverBoundedFrames.class);
    static final String SETTING = "hive.vectorized.execution.ptf.enabled";
    private static final String FIRST_VALUE = "first_value";

    private FirstValueOverBoundedFrames() {
    }

    /**
     * Turns the query's vectorized PTF off when the statement (AST), or a view it names, has first_value and a
     * window frame with a bounded start; returns whether it did.
     */
    static boolean avoid(ASTNode statement, HiveConf query, String currentDatabase) {
        if (!HiveConf.getBoolVar(query, HiveConf.ConfVars.HIVE_VECTORIZATION_ENABLED)
                || !HiveConf.getBoolVar(query, HiveConf.ConfVars.HIVE_VECTORIZATION_REDUCE_ENABLED)
                || !HiveConf.getBoolVar(query, HiveConf.ConfVars.HIVE_VECTORIZATION_PTF_ENABLED)) {
            return false;
        }
        Found found = new Found();
        Set<String> viewsSeen = new HashSet<>();
        Deque<ASTNode> pending = new ArrayDeque<>();
        pending.push(statement);
        while (!pending.isEmpty() && !found.both()) {
            ASTNode node = pending.pop();
            found.note(node);
            if (node.getType() == HiveParser.TOK_TABNAME) {
                view(node, query, currentDatabase, viewsSeen).ifPresent(pending::push);
            }
            // t.* names a table alias, not a table.
            if (node.getChildren() != null && node.getType() != HiveParser.TOK_ALLCOLREF) {
                for (Node child : node.getChildren()) {
                    pending.push((ASTNode) child);
                }
            }
        }
        if (found.both()) {
            query.setBoolean(SETTING, false);
        }
        return found.both();
    }

    /** What the statement's nodes showed so far. */
    private static final class Found {
        private boolean firstValue;
        private boolean boundedStart;

        void note(ASTNode node) {
            int type = node.getType();
            if ((type == HiveParser.TOK_FUNCTION || type == HiveParser.TOK_FUNCTIONDI) && node.getChildCount() > 0
                    && FIRST_VALUE.equalsIgnoreCase(node.getChild(0).getText())) {
                firstValue = true;
            }
            // ROWS (TOK_WINDOWRANGE) or RANGE (TOK_WINDOWVALUES) frames: the first child is the start, unbounded only
            // as ^(KW_PRECEDING KW_UNBOUNDED) (SelectClauseParser.g's window_frame_start_boundary).
            if ((type == HiveParser.TOK_WINDOWRANGE || type == HiveParser.TOK_WINDOWVALUES) && node.getChildCount() > 0) {
                ASTNode start = (ASTNode) node.getChild(0);
                boolean unbounded = start.getType() == HiveParser.KW_PRECEDING && start.getChildCount() > 0
                        && start.getChild(0).getType() == HiveParser.KW_UNBOUNDED;
                boundedStart |= !unbounded;
            }
        }

        boolean both() {
            return firstValue && boundedStart;
        }
    }

    /**
     * The parsed text of the view a TOK_TABNAME names (db.name, or name in the current database; a third part is a
     * table's metadata), the first time it is met; empty for a table, a CTE's name, a missing one, or a view that
     * cannot be read or parsed.
     */
    private static Optional<ASTNode> view(ASTNode tableName, HiveConf query, String currentDatabase,
            Set<String> seen) {
        boolean qualified = tableName.getChildCount() > 1;
        String database = qualified ? tableName.getChild(0).getText() : currentDatabase;
        String name = tableName.getChild(qualified ? 1 : 0).getText();
        if (!seen.add((database + "." + name).toLowerCase(Locale.ROOT))) {
            return Optional.empty();
        }
        try {
            Table table = Hive.get(query).getTable(database, name, false);
            if (table == null || !table.isView() || table.getViewExpandedText() == null) {
                return Optional.empty();
            }
            return Optional.of(new ParseDriver().parse(table.getViewExpandedText(), query).getTree());
        } catch (HiveException | ParseException | RuntimeException e) {
            LOG.info("Not looking into {}.{} for {} frames: {}", database, name, FIRST_VALUE, e.toString());
            return Optional.empty();
        }
    }

    /** Refuses a compiled DAG that still has a vectorized first_value over a frame with a bounded start. */
    static void refuseIfLeft(TezWork work) throws SemanticException {
        for (BaseWork vertex : work.getAllWork()) {
            for (Operator<? extends OperatorDesc> operator : vertex.getAllOperators()) {
                if (!(operator.getConf() instanceof PTFDesc ptf) || !(ptf.getVectorDesc() instanceof VectorPTFDesc v)
                        || v.getEvaluatorFunctionNames() == null) {
                    continue;
                }
                for (int i = 0; i < v.getEvaluatorFunctionNames().length; i++) {
                    if (FIRST_VALUE.equalsIgnoreCase(v.getEvaluatorFunctionNames()[i])
                            && !v.getEvaluatorWindowFrameDefs()[i].isStartUnbounded()) {
                        throw new SemanticException("datampi: " + vertex.getName() + " computes " + FIRST_VALUE
                                + " over a window frame with a bounded start (" + v.getEvaluatorWindowFrameDefs()[i]
                                + ") in Hive's vectorized PTF, which gives the partition's first value instead; set "
                                + SETTING + "=false for this query");
                    }
                }
            }
        }
    }
}
