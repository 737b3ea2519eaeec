package org.datampi.hive.it;

import static org.datampi.hive.it.EverydayStatements.failsNaming;
import static org.datampi.hive.it.EverydayStatements.step;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.datampi.hive.it.EverydayStatements.Check;
import org.datampi.hive.it.EverydayStatements.Script;
import org.datampi.hive.it.EverydayStatements.Step;

/**
 * Hive 4's file formats, read and written on mr and on datampi in both plan shapes (run as EverydayStatements'
 * scripts, over its shared tables): Parquet (vectorized reader, Snappy, ZSTD, uncompressed), Avro (schema from the
 * columns and from avro.schema.literal), JSON (JsonSerDe and STORED AS JSONFILE), CSV (OpenCSVSerde), text with
 * custom delimiters and ORC's compressions; partitioned tables with dynamic partitions, CTAS and INSERT OVERWRITE in
 * each; joins across formats; and input that cannot be read (a corrupt Parquet file, an Avro file whose schema does
 * not match the table), which fails naming the file and leaves the target table as it was.
 */
final class FormatStatements {
    /** Not a Parquet file (no PAR1 at its tail), in a table's directory of its own. */
    private static final String CORRUPT_PARQUET = "parquet_corrupt/part-00000.parquet";

    private FormatStatements() {
    }

    /** Writes the inputs the scripts read besides the shared tables into DIRECTORIES. */
    static void writeInputs(Path directories) throws IOException {
        Path corrupt = directories.resolve(CORRUPT_PARQUET);
        Files.createDirectories(corrupt.getParent());
        Files.writeString(corrupt, "not a parquet file\n".repeat(64), StandardCharsets.UTF_8);
    }

    static List<Script> scripts(Path directories) {
        List<Script> scripts = new ArrayList<>();
        scripts.add(new Script("Parquet", true, List.of(
                step("SET hive.exec.dynamic.partition.mode=nonstrict", Check.ORDERED),
                step("SET hive.vectorized.execution.enabled=true", Check.ORDERED),
                step("CREATE TABLE fm_parquet_%s (k INT, v STRING, d DECIMAL(10,2)) PARTITIONED BY (g INT) "
                        + "STORED AS PARQUET TBLPROPERTIES ('parquet.compression'='SNAPPY')", Check.ORDERED),
                step("INSERT OVERWRITE TABLE fm_parquet_%s PARTITION (g) SELECT k, v, d, k % 3 FROM ev_orc",
                        Check.ORDERED),
                step("SHOW PARTITIONS fm_parquet_%s", Check.ORDERED),
                step("SELECT g, count(*), sum(d), max(v) FROM fm_parquet_%s GROUP BY g", Check.UNORDERED),
                step("CREATE TABLE fm_parquet_zstd_%s STORED AS PARQUET TBLPROPERTIES ('parquet.compression'="
                        + "'ZSTD') AS SELECT k, v, d, g FROM fm_parquet_%s WHERE g < 2", Check.ORDERED),
                step("CREATE TABLE fm_parquet_none_%s STORED AS PARQUET TBLPROPERTIES ('parquet.compression'="
                        + "'UNCOMPRESSED') AS SELECT * FROM fm_parquet_zstd_%s WHERE k % 2 = 0", Check.ORDERED),
                step("SELECT count(*), sum(k), sum(d) FROM fm_parquet_zstd_%s", Check.ORDERED),
                step("SELECT g, count(*), min(v) FROM fm_parquet_none_%s GROUP BY g", Check.UNORDERED))));
        scripts.add(new Script("Avro", true, List.of(
                step("SET hive.exec.dynamic.partition.mode=nonstrict", Check.ORDERED),
                step("CREATE TABLE fm_avro_%s (k INT, v STRING, d DECIMAL(10,2)) PARTITIONED BY (g INT) "
                        + "STORED AS AVRO", Check.ORDERED),
                step("INSERT OVERWRITE TABLE fm_avro_%s PARTITION (g) SELECT k, v, d, k % 3 FROM ev_orc",
                        Check.ORDERED),
                step("SELECT g, count(*), sum(d), min(v) FROM fm_avro_%s GROUP BY g", Check.UNORDERED),
                step("CREATE TABLE fm_avro_literal_%s STORED AS AVRO TBLPROPERTIES ('avro.schema.literal'='"
                        + "{\"type\":\"record\",\"name\":\"kv\",\"fields\":[{\"name\":\"k\",\"type\":\"int\"},"
                        + "{\"name\":\"v\",\"type\":[\"null\",\"string\"]}]}')", Check.ORDERED),
                step("DESCRIBE fm_avro_literal_%s", Check.ORDERED),
                step("INSERT INTO fm_avro_literal_%s SELECT k, v FROM ev_orc WHERE k < 100", Check.ORDERED),
                step("INSERT INTO fm_avro_literal_%s SELECT k, NULL FROM ev_orc WHERE k >= 290", Check.ORDERED),
                step("SELECT v, count(*), sum(k) FROM fm_avro_literal_%s GROUP BY v", Check.UNORDERED))));
        scripts.add(new Script("JSON", true, List.of(
                step("CREATE TABLE fm_json_%s (k INT, v STRING, d DECIMAL(10,2)) ROW FORMAT SERDE "
                        + "'org.apache.hadoop.hive.serde2.JsonSerDe' STORED AS TEXTFILE", Check.ORDERED),
                step("INSERT OVERWRITE TABLE fm_json_%s SELECT k, v, d FROM ev_orc", Check.ORDERED),
                step("SELECT v, count(*), sum(d) FROM fm_json_%s GROUP BY v", Check.UNORDERED),
                step("CREATE TABLE fm_jsonfile_%s STORED AS JSONFILE AS SELECT v, collect_set(k % 5) AS ks, "
                        + "named_struct('n', count(*), 's', sum(d)) AS agg FROM fm_json_%s GROUP BY v",
                        Check.ORDERED),
                step("SELECT v, size(ks), agg.n, agg.s FROM fm_jsonfile_%s", Check.UNORDERED))));
        scripts.add(new Script("CSV and delimited text", true, List.of(
                step("CREATE TABLE fm_csv_%s (k STRING, v STRING) ROW FORMAT SERDE "
                        + "'org.apache.hadoop.hive.serde2.OpenCSVSerde' WITH SERDEPROPERTIES ('separatorChar'=',', "
                        + "'quoteChar'='\"') STORED AS TEXTFILE", Check.ORDERED),
                step("INSERT OVERWRITE TABLE fm_csv_%s SELECT k, concat(v, ', \"quoted\"') FROM ev_orc",
                        Check.ORDERED),
                step("SELECT v, count(*), min(k) FROM fm_csv_%s GROUP BY v", Check.UNORDERED),
                step("CREATE TABLE fm_delimited_%s (k INT, tags ARRAY<STRING>, attrs MAP<STRING,INT>) ROW FORMAT "
                        + "DELIMITED FIELDS TERMINATED BY '|' COLLECTION ITEMS TERMINATED BY ',' MAP KEYS "
                        + "TERMINATED BY ':' STORED AS TEXTFILE", Check.ORDERED),
                step("INSERT OVERWRITE TABLE fm_delimited_%s SELECT k, array(v, 'x'), map(v, k) FROM ev_orc",
                        Check.ORDERED),
                step("SELECT tags[0], count(*), sum(attrs[tags[0]]) FROM fm_delimited_%s GROUP BY tags[0]",
                        Check.UNORDERED))));
        scripts.add(new Script("ORC's compressions and joins across formats", true, List.of(
                step("CREATE TABLE fm_orc_zstd_%s STORED AS ORC TBLPROPERTIES ('orc.compress'='ZSTD') AS "
                        + "SELECT * FROM ev_orc", Check.ORDERED),
                step("CREATE TABLE fm_orc_snappy_%s STORED AS ORC TBLPROPERTIES ('orc.compress'='SNAPPY') AS "
                        + "SELECT * FROM ev_orc", Check.ORDERED),
                step("CREATE TABLE fm_orc_none_%s STORED AS ORC TBLPROPERTIES ('orc.compress'='NONE') AS "
                        + "SELECT * FROM ev_orc", Check.ORDERED),
                step("SELECT z.v, count(*), sum(s.d), max(n.k) FROM fm_orc_zstd_%s z JOIN fm_orc_snappy_%s s "
                        + "ON z.k = s.k JOIN fm_orc_none_%s n ON n.k = z.k GROUP BY z.v", Check.UNORDERED),
                step("SELECT a.g, count(*), sum(j.d), max(p.v), min(c.v) FROM fm_avro_%s a JOIN fm_json_%s j "
                        + "ON a.k = j.k JOIN fm_parquet_%s p ON p.k = a.k JOIN fm_csv_%s c ON c.k = "
                        + "CAST(a.k AS STRING) JOIN ev_rc r ON r.k = a.k JOIN ev_seq q ON q.k = a.k GROUP BY a.g",
                        Check.UNORDERED))));
        String corrupt = "file://" + directories.resolve(CORRUPT_PARQUET).getParent();
        String mismatched = "file://" + directories.resolve("avro_mismatched_%s");
        List<Step> unreadable = List.of(
                step("CREATE TABLE fm_target_%s (k INT, v STRING) STORED AS ORC", Check.ORDERED),
                step("INSERT INTO fm_target_%s SELECT k, v FROM ev_orc WHERE k < 10", Check.ORDERED),
                step("CREATE EXTERNAL TABLE fm_parquet_corrupt_%s (k INT, v STRING) STORED AS PARQUET LOCATION '"
                        + corrupt + "'", Check.ORDERED),
                failsNaming("INSERT OVERWRITE TABLE fm_target_%s SELECT k, v FROM fm_parquet_corrupt_%s",
                        CORRUPT_PARQUET),
                step("SELECT count(*), sum(k) FROM fm_target_%s", Check.ORDERED),
                step("CREATE EXTERNAL TABLE fm_avro_written_%s (a STRING, b STRING) STORED AS AVRO LOCATION '"
                        + mismatched + "'", Check.ORDERED),
                step("INSERT INTO fm_avro_written_%s VALUES ('one', 'two')", Check.ORDERED),
                // The table's schema requires fields the file's records lack (with columns alone, Hive's schema
                // would make every field optional, and the rows read as NULLs).
                step("CREATE EXTERNAL TABLE fm_avro_mismatched_%s STORED AS AVRO LOCATION '" + mismatched + "' "
                        + "TBLPROPERTIES ('avro.schema.literal'='{\"type\":\"record\",\"name\":\"kv\",\"fields\":["
                        + "{\"name\":\"k\",\"type\":\"int\"},{\"name\":\"v\",\"type\":\"int\"}]}')", Check.ORDERED),
                failsNaming("INSERT OVERWRITE TABLE fm_target_%s SELECT k, CAST(v AS STRING) FROM "
                        + "fm_avro_mismatched_%s", "avro_mismatched_%s"),
                step("SELECT count(*), sum(k) FROM fm_target_%s", Check.ORDERED));
        scripts.add(new Script("unreadable input", true, unreadable));
        // hive-iceberg-handler is not on Maven Central (neither 4.1.0 nor 4.0.x): Hive refuses such a table at once.
        scripts.add(new Script("Iceberg", false, List.of(
                failsNaming("CREATE TABLE fm_iceberg_%s (k INT) STORED BY ICEBERG", "HiveIcebergStorageHandler"))));
        return scripts;
    }
}
