-- TPC-H Q15: Top Supplier (DATE = 1996-01-01), with the spec's view.
-- The spec's qualification parameters, so that results can be checked against the spec's answers and DuckDB.
-- Rewrite: the view is dropped first if a previous run left it (`drop view if exists`); otherwise as in the spec.
drop view if exists revenue0;

create view revenue0 (supplier_no, total_revenue) as
    select
        l_suppkey,
        sum(l_extendedprice * (1 - l_discount))
    from
        lineitem
    where
        l_shipdate >= date '1996-01-01'
        and l_shipdate < date '1996-01-01' + interval '3' month
    group by
        l_suppkey;

select
    s_suppkey,
    s_name,
    s_address,
    s_phone,
    total_revenue
from
    supplier,
    revenue0
where
    s_suppkey = supplier_no
    and total_revenue = (
        select
            max(total_revenue)
        from
            revenue0
    )
order by
    s_suppkey;

drop view revenue0;
