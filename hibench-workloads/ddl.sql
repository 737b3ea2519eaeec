-- HiBench's Hive tables (HiBench's bin/functions/workload_functions.sh), over bin/hibench-gen's files.
-- Variables, filled in by bin/hibench-run: ${hivevar:DB} the database, ${hivevar:DATA} the generator's output
-- directory, ${hivevar:ROW_FORMAT} and ${hivevar:STORED_AS} how the files are stored (text and sequencefile:
-- comma-separated rows; orc: ORC files). The output tables are stored like the inputs.
CREATE DATABASE IF NOT EXISTS ${hivevar:DB};
USE ${hivevar:DB};

DROP TABLE IF EXISTS rankings;
CREATE EXTERNAL TABLE rankings (pageURL STRING, pageRank INT, avgDuration INT)
  ${hivevar:ROW_FORMAT} STORED AS ${hivevar:STORED_AS} LOCATION '${hivevar:DATA}/rankings';

DROP TABLE IF EXISTS uservisits;
CREATE EXTERNAL TABLE uservisits (sourceIP STRING, destURL STRING, visitDate STRING, adRevenue DOUBLE,
  userAgent STRING, countryCode STRING, languageCode STRING, searchWord STRING, duration INT)
  ${hivevar:ROW_FORMAT} STORED AS ${hivevar:STORED_AS} LOCATION '${hivevar:DATA}/uservisits';

CREATE TABLE IF NOT EXISTS uservisits_aggre (sourceIP STRING, sumAdRevenue DOUBLE)
  ${hivevar:ROW_FORMAT} STORED AS ${hivevar:STORED_AS};
CREATE TABLE IF NOT EXISTS rankings_uservisits_join (sourceIP STRING, avgPageRank DOUBLE, totalRevenue DOUBLE)
  ${hivevar:ROW_FORMAT} STORED AS ${hivevar:STORED_AS};
CREATE TABLE IF NOT EXISTS uservisits_copy (sourceIP STRING, destURL STRING, visitDate STRING, adRevenue DOUBLE,
  userAgent STRING, countryCode STRING, languageCode STRING, searchWord STRING, duration INT)
  ${hivevar:ROW_FORMAT} STORED AS ${hivevar:STORED_AS};
