package org.datampi.bench.hibench;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import org.apache.orc.TypeDescription;

/** HiBench's two Hive input tables, with their columns as hibench-workloads/ddl.sql declares them. */
public enum HiBenchTable {
    RANKINGS(List.of("pageurl:string", "pagerank:int", "avgduration:int")),
    USERVISITS(List.of("sourceip:string", "desturl:string", "visitdate:string", "adrevenue:double",
            "useragent:string", "countrycode:string", "languagecode:string", "searchword:string", "duration:int"));

    private final List<String> columns;

    HiBenchTable(List<String> columns) {
        this.columns = columns;
    }

    /** The directory name under the data directory, as HiBench names it. */
    public String directory() {
        return name().toLowerCase(Locale.ROOT);
    }

    public int columnCount() {
        return columns.size();
    }

    /** The ORC schema. */
    TypeDescription orcSchema() {
        return TypeDescription.fromString(columns.stream().collect(Collectors.joining(",", "struct<", ">")));
    }
}
