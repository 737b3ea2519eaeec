-- The 8 TPC-H tables as external text tables over bin/tpch-gen's files (dbgen's format: '|'-separated with a
-- trailing '|', which Hive reads as an extra, ignored field). Column types as the spec defines them: DECIMAL for
-- money and quantities, DATE for dates; the spec's CHAR and VARCHAR columns are STRING.
-- Variables: DB (database), DATA (the tpch-gen output directory). The database's datampi.tpch.loaded says 'loading'
-- until the last table is made, then 'complete' (what bin/tpch-bench checks before it runs queries).
-- bucket-tables.sql repeats the columns of orders and lineitem (a change here is a change there).
CREATE DATABASE IF NOT EXISTS ${hivevar:DB};
ALTER DATABASE ${hivevar:DB} SET DBPROPERTIES ('datampi.tpch.loaded'='loading');
USE ${hivevar:DB};

DROP TABLE IF EXISTS nation;
CREATE EXTERNAL TABLE nation (n_nationkey INT, n_name STRING, n_regionkey INT, n_comment STRING)
ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' STORED AS TEXTFILE LOCATION '${hivevar:DATA}/nation';

DROP TABLE IF EXISTS region;
CREATE EXTERNAL TABLE region (r_regionkey INT, r_name STRING, r_comment STRING)
ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' STORED AS TEXTFILE LOCATION '${hivevar:DATA}/region';

DROP TABLE IF EXISTS part;
CREATE EXTERNAL TABLE part (p_partkey BIGINT, p_name STRING, p_mfgr STRING, p_brand STRING, p_type STRING,
    p_size INT, p_container STRING, p_retailprice DECIMAL(15,2), p_comment STRING)
ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' STORED AS TEXTFILE LOCATION '${hivevar:DATA}/part';

DROP TABLE IF EXISTS supplier;
CREATE EXTERNAL TABLE supplier (s_suppkey BIGINT, s_name STRING, s_address STRING, s_nationkey INT,
    s_phone STRING, s_acctbal DECIMAL(15,2), s_comment STRING)
ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' STORED AS TEXTFILE LOCATION '${hivevar:DATA}/supplier';

DROP TABLE IF EXISTS partsupp;
CREATE EXTERNAL TABLE partsupp (ps_partkey BIGINT, ps_suppkey BIGINT, ps_availqty INT,
    ps_supplycost DECIMAL(15,2), ps_comment STRING)
ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' STORED AS TEXTFILE LOCATION '${hivevar:DATA}/partsupp';

DROP TABLE IF EXISTS customer;
CREATE EXTERNAL TABLE customer (c_custkey BIGINT, c_name STRING, c_address STRING, c_nationkey INT,
    c_phone STRING, c_acctbal DECIMAL(15,2), c_mktsegment STRING, c_comment STRING)
ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' STORED AS TEXTFILE LOCATION '${hivevar:DATA}/customer';

DROP TABLE IF EXISTS orders;
CREATE EXTERNAL TABLE orders (o_orderkey BIGINT, o_custkey BIGINT, o_orderstatus STRING,
    o_totalprice DECIMAL(15,2), o_orderdate DATE, o_orderpriority STRING, o_clerk STRING, o_shippriority INT,
    o_comment STRING)
ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' STORED AS TEXTFILE LOCATION '${hivevar:DATA}/orders';

DROP TABLE IF EXISTS lineitem;
CREATE EXTERNAL TABLE lineitem (l_orderkey BIGINT, l_partkey BIGINT, l_suppkey BIGINT, l_linenumber INT,
    l_quantity DECIMAL(15,2), l_extendedprice DECIMAL(15,2), l_discount DECIMAL(15,2), l_tax DECIMAL(15,2),
    l_returnflag STRING, l_linestatus STRING, l_shipdate DATE, l_commitdate DATE, l_receiptdate DATE,
    l_shipinstruct STRING, l_shipmode STRING, l_comment STRING)
ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' STORED AS TEXTFILE LOCATION '${hivevar:DATA}/lineitem';

ALTER DATABASE ${hivevar:DB} SET DBPROPERTIES ('datampi.tpch.loaded'='complete');
