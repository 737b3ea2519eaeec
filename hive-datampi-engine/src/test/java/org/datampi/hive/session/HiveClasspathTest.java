package org.datampi.hive.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Properties;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.serde.serdeConstants;
import org.apache.hadoop.hive.serde2.AbstractSerDe;
import org.apache.hadoop.hive.serde2.avro.AvroGenericRecordWritable;
import org.apache.hadoop.hive.serde2.objectinspector.ObjectInspector;
import org.apache.hadoop.hive.serde2.objectinspector.ObjectInspectorFactory;
import org.apache.hadoop.hive.serde2.objectinspector.StructField;
import org.apache.hadoop.hive.serde2.objectinspector.StructObjectInspector;
import org.apache.hadoop.hive.serde2.objectinspector.primitive.PrimitiveObjectInspectorFactory;
import org.apache.hadoop.io.Writable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Hive classpath the project builds (hive-datampi-engine's pom) carries what Hive 4.1.0's distribution has for
 * its file formats and its transaction manager: each SerDe writes a row and reads it back, and the transaction
 * handler's classes resolve. A library missing from the pom fails here with the NoClassDefFoundError a user would
 * meet in DDLTask (jackson-core for Avro and JSON, opencsv for CSV, Spring's JDBC for DbTxnManager).
 */
class HiveClasspathTest {
    private static final List<Object> ROW = List.of("7", "seven, \"quoted\"");

    @ParameterizedTest
    @ValueSource(strings = {
            "org.apache.hadoop.hive.serde2.avro.AvroSerDe",
            "org.apache.hadoop.hive.serde2.JsonSerDe",
            "org.apache.hadoop.hive.serde2.OpenCSVSerde",
            "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe",
            "org.apache.hadoop.hive.serde2.columnar.ColumnarSerDe",
            "org.apache.hadoop.hive.serde2.lazybinary.LazyBinarySerDe"})
    void eachSerDeWritesARowAndReadsItBack(String serDeClass) throws Exception {
        AbstractSerDe serDe = (AbstractSerDe) Class.forName(serDeClass).getConstructor().newInstance();
        Properties table = new Properties();
        table.setProperty(serdeConstants.LIST_COLUMNS, "k,v");
        table.setProperty(serdeConstants.LIST_COLUMN_TYPES, "string,string");
        table.setProperty("name", "default.classpath_check");
        serDe.initialize(new Configuration(), table, null);

        StructObjectInspector rowInspector = ObjectInspectorFactory.getStandardStructObjectInspector(List.of("k", "v"),
                List.<ObjectInspector>of(PrimitiveObjectInspectorFactory.javaStringObjectInspector,
                        PrimitiveObjectInspectorFactory.javaStringObjectInspector));
        Writable written = serDe.serialize(ROW, rowInspector);
        if (written instanceof AvroGenericRecordWritable avro) {
            // What Hive's Avro container reader sets on each record it reads: the schema the file was written with.
            avro.setFileSchema(avro.getRecord().getSchema());
        }
        Object read = serDe.deserialize(written);

        StructObjectInspector readInspector = (StructObjectInspector) serDe.getObjectInspector();
        List<Object> values = readInspector.getAllStructFieldRefs().stream()
                .map(field -> text(readInspector, field, read)).toList();
        assertEquals(ROW, values, serDeClass);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
            "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
            "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat",
            "org.apache.hadoop.hive.ql.io.avro.AvroContainerInputFormat",
            "org.apache.hadoop.hive.ql.lockmgr.DbTxnManager",
            "org.apache.hadoop.hive.metastore.txn.TxnHandler",
            "org.apache.hadoop.hive.metastore.txn.CompactionTxnHandler",
            "org.apache.hadoop.hive.ql.ddl.table.create.show.ShowCreateTableOperation"})
    void theClassesOfFormatsAndTransactionsResolve(String className) throws Exception {
        Class<?> loaded = Class.forName(className);
        // Resolving the declared members loads every class their signatures name (Spring's for TxnHandler).
        assertTrue(Arrays.stream(loaded.getDeclaredMethods()).count() + loaded.getDeclaredFields().length > 0,
                className);
    }

    private static Object text(StructObjectInspector inspector, StructField field, Object row) {
        Object value = inspector.getStructFieldData(row, field);
        return value == null ? null : value.toString();
    }
}
