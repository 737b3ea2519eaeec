-- The TPC-H tables as a warehouse that joins orders with lineitem often keeps them: both bucketed and sorted by the
-- order key into the same number of buckets, so that Hive on Tez can join them bucket by bucket (a bucket map join,
-- or a sort-merge bucket join); the other six are copies as in copy-tables.sql. Made by Hive itself, with table and
-- column statistics for the optimizer. Variables: SOURCE (the text database), DB (the target), FORMAT (ORC or
-- RCFILE), BUCKETS. The database's datampi.tpch.loaded says 'loading' until the last table is made, then 'complete'.
-- The columns of orders and lineitem are text-tables.sql's (a change there is a change here).
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
CREATE TABLE orders (o_orderkey BIGINT, o_custkey BIGINT, o_orderstatus STRING,
    o_totalprice DECIMAL(15,2), o_orderdate DATE, o_orderpriority STRING, o_clerk STRING, o_shippriority INT,
    o_comment STRING)
CLUSTERED BY (o_orderkey) SORTED BY (o_orderkey) INTO ${hivevar:BUCKETS} BUCKETS STORED AS ${hivevar:FORMAT};
INSERT OVERWRITE TABLE orders SELECT * FROM ${hivevar:SOURCE}.orders;
DROP TABLE IF EXISTS lineitem;
CREATE TABLE lineitem (l_orderkey BIGINT, l_partkey BIGINT, l_suppkey BIGINT, l_linenumber INT,
    l_quantity DECIMAL(15,2), l_extendedprice DECIMAL(15,2), l_discount DECIMAL(15,2), l_tax DECIMAL(15,2),
    l_returnflag STRING, l_linestatus STRING, l_shipdate DATE, l_commitdate DATE, l_receiptdate DATE,
    l_shipinstruct STRING, l_shipmode STRING, l_comment STRING)
CLUSTERED BY (l_orderkey) SORTED BY (l_orderkey) INTO ${hivevar:BUCKETS} BUCKETS STORED AS ${hivevar:FORMAT};
INSERT OVERWRITE TABLE lineitem SELECT * FROM ${hivevar:SOURCE}.lineitem;

ALTER DATABASE ${hivevar:DB} SET DBPROPERTIES ('datampi.tpch.loaded'='complete');
