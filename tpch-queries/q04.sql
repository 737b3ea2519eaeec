-- TPC-H Q4: Order Priority Checking (DATE = 1993-07-01).
-- The spec's qualification parameters, so that results can be checked against the spec's answers and DuckDB.
-- As in the spec.
select
    o_orderpriority,
    count(*) as order_count
from
    orders
where
    o_orderdate >= date '1993-07-01'
    and o_orderdate < date '1993-07-01' + interval '3' month
    and exists (
        select
            *
        from
            lineitem
        where
            l_orderkey = o_orderkey
            and l_commitdate < l_receiptdate
    )
group by
    o_orderpriority
order by
    o_orderpriority;
