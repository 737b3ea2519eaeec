-- TPC-H Q11: Important Stock Identification (NATION = GERMANY, FRACTION = 0.0001).
-- The spec's qualification parameters, so that results can be checked against the spec's answers and DuckDB.
-- The spec scales FRACTION with the data: 0.0001 / SF (0.0001 at SF 1). It is a Hive variable here: run with
-- `SET hivevar:FRACTION=<0.0001 / SF>;` first (bin/tpch-run does).
select
    ps_partkey,
    sum(ps_supplycost * ps_availqty) as value
from
    partsupp,
    supplier,
    nation
where
    ps_suppkey = s_suppkey
    and s_nationkey = n_nationkey
    and n_name = 'GERMANY'
group by
    ps_partkey
having
    sum(ps_supplycost * ps_availqty) > (
        select
            sum(ps_supplycost * ps_availqty) * ${hivevar:FRACTION}
        from
            partsupp,
            supplier,
            nation
        where
            ps_suppkey = s_suppkey
            and s_nationkey = n_nationkey
            and n_name = 'GERMANY'
    )
order by
    value desc;
