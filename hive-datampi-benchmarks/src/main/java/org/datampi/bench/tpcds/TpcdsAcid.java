package org.datampi.bench.tpcds;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import org.datampi.bench.harness.Workload;

/**
 * TPC-DS over a transactional fact table (bin/tpcds-bench --acid): a full-ACID ORC copy of {@code store_sales},
 * changed by an INSERT, an UPDATE, a DELETE and a MERGE of 1% of its rows each (tickets by number modulo 100, a
 * different residue for each), then TPC-DS queries that read the copy in place of {@code store_sales}: the cost of
 * Hive's transactional writes (locks, write ids, delete deltas) and of reading a table with delta and delete-delta
 * directories, under DbTxnManager.
 *
 * <p>Each change is timed as a workload whose answer is the copy's totals after it ({@link #TOTALS}), so that the
 * report compares the engines' writes row for row. Each is timed once, with no warm-up (TpcdsRunner refuses more): a
 * second DELETE of the same rows would find none. Every engine runs the same sequence on a copy of its own making, so
 * the totals agree. The copy is unpartitioned in both layouts and its automatic compaction is off ({@code
 * NO_AUTO_COMPACTION}): the Initiator would otherwise start a compaction in the middle of the timed queries on one
 * engine and not another.
 */
public final class TpcdsAcid {
    /** The transactional copy of store_sales, in the layout's database. */
    public static final String TABLE = "store_sales_acid";
    /** The session settings of Hive's transactional tables. */
    public static final Map<String, String> SETTINGS = Map.of(
            "hive.support.concurrency", "true",
            "hive.txn.manager", "org.apache.hadoop.hive.ql.lockmgr.DbTxnManager");
    /** The queries the ACID run times unless --queries says: TPC-DS's reporting queries over store_sales. */
    public static final String DEFAULT_QUERIES = "3,7,19,42,43,52,53,55,63,96";
    static final String TOTALS = "SELECT COUNT(*), SUM(ss_quantity), SUM(ss_net_paid), SUM(ss_net_profit) FROM "
            + TABLE;
    private static final Pattern STORE_SALES = Pattern.compile("\\bstore_sales\\b");

    private TpcdsAcid() {
    }

    /** The untimed statements that make the copy afresh (each engine makes its own). */
    public static List<String> setup() {
        return List.of("DROP TABLE IF EXISTS " + TABLE + " PURGE",
                "CREATE TABLE " + TABLE + " STORED AS ORC TBLPROPERTIES ('transactional'='true', "
                        + "'NO_AUTO_COMPACTION'='true') AS SELECT * FROM store_sales");
    }

    /** The timed changes, in order: each one's answer is the copy's totals after it. */
    public static List<Workload> changes() {
        return List.of(
                change("acid_insert", "INSERT INTO " + TABLE + " SELECT * FROM store_sales"
                        + " WHERE ss_ticket_number % 100 = 1"),
                change("acid_update", "UPDATE " + TABLE + " SET ss_quantity = ss_quantity + 1,"
                        + " ss_net_paid = ss_net_paid + 1 WHERE ss_ticket_number % 100 = 2"),
                change("acid_delete", "DELETE FROM " + TABLE + " WHERE ss_ticket_number % 100 = 3"),
                change("acid_merge", "MERGE INTO " + TABLE + " t USING (SELECT ss_item_sk, ss_ticket_number,"
                        + " ss_net_profit FROM store_sales WHERE ss_ticket_number % 100 = 4) s"
                        + " ON t.ss_item_sk = s.ss_item_sk AND t.ss_ticket_number = s.ss_ticket_number"
                        + " WHEN MATCHED THEN UPDATE SET ss_net_profit = s.ss_net_profit + 1"));
    }

    /** PART as a workload that reads the transactional copy wherever it reads store_sales. */
    public static Workload overCopy(TpcdsQuery.Part part) {
        return new Workload(part.name(), List.of(STORE_SALES.matcher(part.sql()).replaceAll(TABLE)),
                Optional.empty());
    }

    private static Workload change(String name, String statement) {
        return new Workload(name, List.of(statement), Optional.of(TOTALS));
    }
}
