package org.datampi.bench.tpcds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class TpcdsLayoutTest {
    @Test
    void databasesAreNamedByScaleFormatAndLayout() {
        assertEquals("tpcds_sf0_01_orc", new TpcdsLayout("0.01", "orc", false).database());
        assertEquals("tpcds_sf1_orc_part", new TpcdsLayout("1", "ORC", true).database());
        assertEquals("tpcds_sf1_parquet_part", new TpcdsLayout("1", "parquet", true).database());
        assertEquals("tpcds_sf10_text", new TpcdsLayout("10", "orc", true).textDatabase());
        assertTrue(new TpcdsLayout("1", "text", false).isSource());
        assertEquals(Optional.of("ss_sold_date_sk"), new TpcdsLayout("1", "orc", true).partitionKey("store_sales"));
        assertEquals(Optional.empty(), new TpcdsLayout("1", "orc", false).partitionKey("store_sales"));
        assertEquals(Optional.empty(), new TpcdsLayout("1", "orc", true).partitionKey("date_dim"));
        assertEquals(7, TpcdsLayout.PARTITION_KEYS.size());
        assertTrue(TpcdsGenerator.tableNames().containsAll(TpcdsLayout.PARTITION_KEYS.keySet()));
    }

    @Test
    void badScalesAndFormatsAreRefusedByName() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new TpcdsLayout("0", "orc", false))
                .getMessage().contains("--scale"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new TpcdsLayout("1e3", "orc", false))
                .getMessage().contains("--scale"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new TpcdsLayout("1", "avro", false))
                .getMessage().contains("--format"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TpcdsLayout.of("1", "orc", "bucketed"))
                .getMessage().contains("--layout"));
    }

    @Test
    void aDatabaseIsLoadedOnlyWithItsOwnMark() {
        TpcdsLayout text = TpcdsLayout.of("1", "text", "flat");
        assertTrue(text.isLoadedBy("scale=1 format=text partitioned=false data=file:/data/sf1"));
        assertFalse(text.isLoadedBy("loading"));
        assertFalse(text.isLoadedBy(""));
        assertFalse(TpcdsLayout.of("1", "orc", "flat").isLoadedBy("scale=10 format=orc partitioned=false"));
        assertFalse(TpcdsLayout.of("1", "orc", "partitioned").isLoadedBy("scale=1 format=orc partitioned=false"));
        TpcdsLayout partitioned = TpcdsLayout.of("1", "orc", "partitioned");
        String some = partitioned.loadedMark(List.of("store_sales", "date_dim"));
        assertEquals("scale=1 format=orc partitioned=true tables=date_dim,store_sales", some);
        assertFalse(partitioned.isLoadedBy(some), "a database of some tables is not the layout loaded");
    }
}
