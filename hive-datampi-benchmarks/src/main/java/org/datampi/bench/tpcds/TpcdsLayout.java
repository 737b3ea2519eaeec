package org.datampi.bench.tpcds;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Where a loaded TPC-DS data set lives in Hive: the database {@code tpcds_sf<scale>_<format>} (the scale with '_'
 * for '.'), with {@code _part} when the seven fact tables are partitioned by their date key as Hive warehouses hold
 * them (hive-testbench's layout).
 *
 * @param scale as given, e.g. "1" or "0.01"
 * @param format text, orc, rcfile, sequencefile or parquet
 */
public record TpcdsLayout(String scale, String format, boolean partitioned) {
    /** The fact tables and the date key each is partitioned by. */
    public static final Map<String, String> PARTITION_KEYS = Map.of(
            "store_sales", "ss_sold_date_sk",
            "store_returns", "sr_returned_date_sk",
            "catalog_sales", "cs_sold_date_sk",
            "catalog_returns", "cr_returned_date_sk",
            "web_sales", "ws_sold_date_sk",
            "web_returns", "wr_returned_date_sk",
            "inventory", "inv_date_sk");

    /** The database property the loader sets last: a database without it is half loaded. */
    public static final String LOADED_PROPERTY = "datampi.tpcds.loaded";
    private static final String TABLES = "tables";

    public TpcdsLayout {
        requireNonNull(scale, "scale is null");
        if (!scale.matches("[0-9]+(\\.[0-9]+)?") || !(Double.parseDouble(scale) > 0)) {
            throw new IllegalArgumentException("Invalid value '" + scale + "' for --scale: expected a number > 0");
        }
        format = format.toLowerCase(Locale.ROOT);
        if (!format.matches("text|orc|rcfile|sequencefile|parquet")) {
            throw new IllegalArgumentException("Invalid value '" + format + "' for --format: expected text, orc, "
                    + "rcfile, sequencefile or parquet");
        }
    }

    /** From the runners' options: --layout flat or partitioned. */
    public static TpcdsLayout of(String scale, String format, String layout) {
        if (!layout.equals("flat") && !layout.equals("partitioned")) {
            throw new IllegalArgumentException("Invalid value '" + layout + "' for --layout: expected flat or "
                    + "partitioned");
        }
        return new TpcdsLayout(scale, format, layout.equals("partitioned"));
    }

    public String database() {
        return "tpcds_sf" + scale.replace('.', '_') + "_" + format + (partitioned ? "_part" : "");
    }

    /** The external text tables over tpcds-gen's files that every other layout is copied from. */
    public String textDatabase() {
        return "tpcds_sf" + scale.replace('.', '_') + "_text";
    }

    /** Whether the layout is the text database itself (nothing to copy). */
    public boolean isSource() {
        return format.equals("text") && !partitioned;
    }

    public Optional<String> partitionKey(String table) {
        return partitioned ? Optional.ofNullable(PARTITION_KEYS.get(table)) : Optional.empty();
    }

    /** The value of {@link #LOADED_PROPERTY} once loaded (the text database's goes on with the files it reads). */
    public String loadedMark() {
        return "scale=" + scale + " format=" + format + " partitioned=" + partitioned;
    }

    /**
     * The value of {@link #LOADED_PROPERTY} once some of the tables are loaded, in name order: such a database is
     * not this layout loaded ({@link #isLoadedBy}), so a runner loads it whole before it runs a query.
     */
    public String loadedMark(Collection<String> tables) {
        return loadedMark() + " " + TABLES + "=" + String.join(",", new TreeSet<>(tables));
    }

    /** Whether a database whose {@link #LOADED_PROPERTY} is {@code mark} holds this layout, loaded to the end. */
    public boolean isLoadedBy(String mark) {
        return mark.equals(loadedMark()) || mark.startsWith(loadedMark() + " ") && !mark.contains(" " + TABLES + "=");
    }
}
