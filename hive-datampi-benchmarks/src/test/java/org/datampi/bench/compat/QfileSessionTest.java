package org.datampi.bench.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class QfileSessionTest {
    @Test
    void onlyAnOrderByOfTheResultOrdersItsRows() {
        assertTrue(QfileSession.ordersItsRows("SELECT key FROM src ORDER BY key"));
        assertTrue(QfileSession.ordersItsRows("SELECT * FROM (SELECT key FROM src) t\norder   by key LIMIT 5"));
        assertFalse(QfileSession.ordersItsRows("SELECT p_mfgr, sum(p_retailprice) OVER (PARTITION BY p_mfgr "
                + "ORDER BY p_name) FROM part"));
        assertFalse(QfileSession.ordersItsRows("SELECT * FROM (SELECT key FROM src ORDER BY key LIMIT 5) t"));
        assertFalse(QfileSession.ordersItsRows("SELECT 'order by' FROM src"));
        assertFalse(QfileSession.ordersItsRows("SELECT key FROM src SORT BY key"));
    }

    @Test
    void aGrantsTimeIsMasked() {
        assertEquals("default\tt\t\t\tu\tUSER\tDROP\tfalse\t-1\troot", QfileSession.withoutGrantTime(
                "default\tt\t\t\tu\tUSER\tDROP\tfalse\t1796675863000\troot"));
        assertEquals("a\tb", QfileSession.withoutGrantTime("a\tb"));
    }
}
