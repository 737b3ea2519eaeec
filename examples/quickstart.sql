-- The README's first command: bin/hive-datampi -f examples/quickstart.sql
-- Generates a small sales table, copies it into ORC, and runs a GROUP BY, a join and an ORDER BY on the datampi
-- engine (the default engine of bin/hive-datampi). Safe to run again: it rebuilds its own database.
CREATE DATABASE IF NOT EXISTS quickstart;
USE quickstart;
DROP TABLE IF EXISTS sales;
DROP TABLE IF EXISTS regions;

CREATE TABLE sales STORED AS ORC AS
SELECT pos AS id,
       concat('customer-', pmod(pos * 7919, 1000)) AS customer,
       pmod(pos, 7) AS region_id,
       CAST(pmod(pos * 31, 10000) / 100.0 AS DECIMAL(10,2)) AS amount,
       date_add('2024-01-01', pmod(pos, 366)) AS day
FROM (SELECT posexplode(split(space(199999), ' ')) AS (pos, unused)) generated;

CREATE TABLE regions STORED AS ORC AS
SELECT stack(7, 0, 'north', 1, 'south', 2, 'east', 3, 'west', 4, 'centre', 5, 'coast', 6, 'islands')
       AS (region_id, region);

-- Revenue per region (a shuffle join or a map join, then a GROUP BY), largest first.
SELECT r.region, count(*) AS orders, sum(s.amount) AS revenue
FROM sales s JOIN regions r ON s.region_id = r.region_id
GROUP BY r.region
ORDER BY revenue DESC;

-- The ten customers who spent most in the second half of the year.
SELECT customer, sum(amount) AS spent
FROM sales
WHERE day >= '2024-07-01'
GROUP BY customer
ORDER BY spent DESC, customer
LIMIT 10;
