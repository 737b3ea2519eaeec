-- Copies of the text tables in another storage format, made by Hive itself (CTAS), with table and column
-- statistics for the optimizer. Variables: SOURCE (the text database), DB (the target), FORMAT (ORC, RCFILE or PARQUET).
-- The database's datampi.tpch.loaded says 'loading' until the last copy is made, then 'complete'.
CREATE DATABASE IF NOT EXISTS ${hivevar:DB};
ALTER DATABASE ${hivevar:DB} SET DBPROPERTIES ('datampi.tpch.loaded'='loading');
USE ${hivevar:DB};

DROP TABLE IF EXISTS nation;
CREATE TABLE nation STORED AS ${hivevar:FORMAT} AS SELECT * FROM ${hivevar:SOURCE}.nation;
DROP TABLE IF EXISTS region;
CREATE TABLE region STORED AS ${hivevar:FORMAT} AS SELECT * FROM ${hivevar:SOURCE}.region;
DROP TABLE IF EXISTS part;
CREATE TABLE part STORED AS ${hivevar:FORMAT} AS SELECT * FROM ${hivevar:SOURCE}.part;
DROP TABLE IF EXISTS supplier;
CREATE TABLE supplier STORED AS ${hivevar:FORMAT} AS SELECT * FROM ${hivevar:SOURCE}.supplier;
DROP TABLE IF EXISTS partsupp;
CREATE TABLE partsupp STORED AS ${hivevar:FORMAT} AS SELECT * FROM ${hivevar:SOURCE}.partsupp;
DROP TABLE IF EXISTS customer;
CREATE TABLE customer STORED AS ${hivevar:FORMAT} AS SELECT * FROM ${hivevar:SOURCE}.customer;
DROP TABLE IF EXISTS orders;
CREATE TABLE orders STORED AS ${hivevar:FORMAT} AS SELECT * FROM ${hivevar:SOURCE}.orders;
DROP TABLE IF EXISTS lineitem;
CREATE TABLE lineitem STORED AS ${hivevar:FORMAT} AS SELECT * FROM ${hivevar:SOURCE}.lineitem;

ALTER DATABASE ${hivevar:DB} SET DBPROPERTIES ('datampi.tpch.loaded'='complete');
