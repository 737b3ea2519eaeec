-- TPC-DS query 42 for Hive 4.1.
-- From DuckDB 1.5.5's tpcds extension (the spec's qualification parameters), by tpcds-queries/generate.py.
-- Hive rewrites:
--   - DESC keys sort NULLs last (Hive 4.1 sorts them first for DESC, last for ASC; the spec's answers and DuckDB
--     last for both) (1x)

SELECT dt.d_year,
       item.i_category_id,
       item.i_category,
       sum(ss_ext_sales_price)
FROM date_dim dt,
     store_sales,
     item
WHERE dt.d_date_sk = store_sales.ss_sold_date_sk
  AND store_sales.ss_item_sk = item.i_item_sk
  AND item.i_manager_id = 1
  AND dt.d_moy=11
  AND dt.d_year=2000
GROUP BY dt.d_year,
         item.i_category_id,
         item.i_category
ORDER BY sum(ss_ext_sales_price) DESC NULLS LAST,dt.d_year,
                                      item.i_category_id,
                                      item.i_category
LIMIT 100 ;
