-- TPC-H Q13: Customer Distribution (WORD1 = special, WORD2 = requests).
-- The spec's qualification parameters, so that results can be checked against the spec's answers and DuckDB.
-- Rewrite: the spec names the derived table's columns in `as c_orders (c_custkey, c_count)`; Hive does not accept a
-- column list on a subquery alias, so the columns are named inside the select.
select
    c_count,
    count(*) as custdist
from
    (
        select
            c_custkey,
            count(o_orderkey) as c_count
        from
            customer left outer join orders on
                c_custkey = o_custkey
                and o_comment not like '%special%requests%'
        group by
            c_custkey
    ) as c_orders
group by
    c_count
order by
    custdist desc,
    c_count desc;
