#!/usr/bin/env python3
"""Writes tpcds-queries/q01.sql ... q99.sql (HiveQL) and tpcds-queries/duckdb/q01.sql ... (the oracle's text).

The source is the 99 TPC-DS queries with the spec's qualification parameters as DuckDB's tpcds extension ships them
(PyPI: duckdb and duckdb-extension-tpcds, the same version). Each HiveQL file is that text with Hive's rewrites
applied by the rules below, each rule that changed a query named in a comment at the top of its file. The four
queries of two parts (14, 23, 24, 39) get their second part here, from the first by the changes the spec's
templates make (DuckDB ships one part of each: the first, but of 23 the second), in both dialects. The DuckDB files are what the answer tests run
in DuckDB over the same data: the text as shipped, so that a rewrite that changed a query's meaning shows as a
wrong answer.

    python3 -m venv target/tpcds-venv
    target/tpcds-venv/bin/pip install duckdb==1.5.5 duckdb-extension-tpcds==1.5.5
    target/tpcds-venv/bin/python tpcds-queries/generate.py
"""
import glob
import os
import re
import sys
import textwrap

import duckdb

VERSION = '1.5.5'
HERE = os.path.dirname(os.path.abspath(__file__))


def source_queries():
    import duckdb_extension_tpcds
    root = os.path.dirname(duckdb_extension_tpcds.__file__)
    [extension] = glob.glob(os.path.join(root, 'extensions', '*', 'tpcds.duckdb_extension'))
    con = duckdb.connect(config={'autoinstall_known_extensions': False, 'autoload_known_extensions': False})
    con.execute(f"LOAD '{extension}'")
    return {number: text.strip() for number, text in
            con.execute('SELECT query_nr, query FROM tpcds_queries() ORDER BY 1').fetchall()}


# The other parts, from the shipped one by the spec templates' changes (query14.tpl, query23.tpl, query24.tpl,
# query39.tpl in the TPC-DS kit): (old, new) replacements of the first part's text, each of which must match once.
SECOND_PARTS = {
    14: [
        # 14b: this year's and last year's sales of the cross items in one week, store channel only, side by side.
        (re.compile(r'SELECT channel,\s+i_brand_id,.*\Z', re.S), '''SELECT this_year.channel ty_channel,
       this_year.i_brand_id ty_brand,
       this_year.i_class_id ty_class,
       this_year.i_category_id ty_category,
       this_year.sales ty_sales,
       this_year.number_sales ty_number_sales,
       last_year.channel ly_channel,
       last_year.i_brand_id ly_brand,
       last_year.i_class_id ly_class,
       last_year.i_category_id ly_category,
       last_year.sales ly_sales,
       last_year.number_sales ly_number_sales
FROM
  (SELECT 'store' channel,
          i_brand_id,
          i_class_id,
          i_category_id,
          sum(ss_quantity*ss_list_price) sales,
          count(*) number_sales
   FROM store_sales,
        item,
        date_dim
   WHERE ss_item_sk IN
       (SELECT ss_item_sk
        FROM cross_items)
     AND ss_item_sk = i_item_sk
     AND ss_sold_date_sk = d_date_sk
     AND d_week_seq =
       (SELECT d_week_seq
        FROM date_dim
        WHERE d_year = 1999 + 1
          AND d_moy = 12
          AND d_dom = 11)
   GROUP BY i_brand_id,
            i_class_id,
            i_category_id
   HAVING sum(ss_quantity*ss_list_price) >
     (SELECT average_sales
      FROM avg_sales)) this_year,
  (SELECT 'store' channel,
          i_brand_id,
          i_class_id,
          i_category_id,
          sum(ss_quantity*ss_list_price) sales,
          count(*) number_sales
   FROM store_sales,
        item,
        date_dim
   WHERE ss_item_sk IN
       (SELECT ss_item_sk
        FROM cross_items)
     AND ss_item_sk = i_item_sk
     AND ss_sold_date_sk = d_date_sk
     AND d_week_seq =
       (SELECT d_week_seq
        FROM date_dim
        WHERE d_year = 1999
          AND d_moy = 12
          AND d_dom = 11)
   GROUP BY i_brand_id,
            i_class_id,
            i_category_id
   HAVING sum(ss_quantity*ss_list_price) >
     (SELECT average_sales
      FROM avg_sales)) last_year
WHERE this_year.i_brand_id = last_year.i_brand_id
  AND this_year.i_class_id = last_year.i_class_id
  AND this_year.i_category_id = last_year.i_category_id
ORDER BY this_year.channel,
         this_year.i_brand_id,
         this_year.i_class_id,
         this_year.i_category_id
LIMIT 100;'''),
    ],
    23: [
        # 23a: the total of the best customers' sales of frequent items; DuckDB ships 23b, their names.
        (re.compile(r'SELECT c_last_name,\s+c_first_name,\s+sales\s+FROM.*\Z', re.S), '''SELECT sum(sales)
FROM
  (SELECT cs_quantity*cs_list_price sales
   FROM catalog_sales,
        date_dim
   WHERE d_year = 2000
     AND d_moy = 2
     AND cs_sold_date_sk = d_date_sk
     AND cs_item_sk IN
       (SELECT item_sk
        FROM frequent_ss_items)
     AND cs_bill_customer_sk IN
       (SELECT c_customer_sk
        FROM best_ss_customer)
   UNION ALL SELECT ws_quantity*ws_list_price sales
   FROM web_sales,
        date_dim
   WHERE d_year = 2000
     AND d_moy = 2
     AND ws_sold_date_sk = d_date_sk
     AND ws_item_sk IN
       (SELECT item_sk
        FROM frequent_ss_items)
     AND ws_bill_customer_sk IN
       (SELECT c_customer_sk
        FROM best_ss_customer)) y
LIMIT 100;'''),
    ],
    # 24b: the second color of the qualification parameters.
    24: [(re.compile(r"WHERE i_color = 'peach'"), "WHERE i_color = 'saddle'")],
    # 39b: only the pairs whose first month varies by more than 1.5.
    39: [(re.compile(r'AND inv2\.d_moy=1\+1\n'), 'AND inv2.d_moy=1+1\n  AND inv1.cov > 1.5\n')],
}

# The queries whose shipped text is the spec's second part (the other one is made from it).
SHIPPED_SECOND = {23}

# Hive 4.1's rewrites, in order: (name, why, pattern, replacement or function, only these queries or None).
RULES = [
    ('nulls-last', 'DESC keys sort NULLs last (Hive 4.1 sorts them first for DESC, last for ASC; the spec\'s '
     'answers and DuckDB last for both)',
     re.compile(r'\bDESC\b(?!\s+NULLS)', re.I), 'DESC NULLS LAST', None),
    ('backquotes', 'quoted aliases in backquotes (Hive reads "..." as a string)',
     re.compile(r'"([^"\n]+)"'), r'`\1`', None),
    ('date-add', 'date + integer as date_add(date, integer) (Hive adds only intervals to dates)',
     re.compile(r'd1\.d_date \+ 5'), 'date_add(d1.d_date, 5)', {72}),
    ('grouping-alias', 'ORDER BY names the select list\'s lochierarchy instead of repeating its grouping() sum '
     '(Hive 4.1 refuses grouping() in ORDER BY: "grouping() requires at least 2 argument")',
     re.compile(r'WHEN grouping\(\w+\)\+grouping\(\w+\) = 0 THEN'), 'WHEN lochierarchy = 0 THEN', {36, 70, 86}),
]


def other_part(number, text):
    for pattern, replacement in SECOND_PARTS[number]:
        text, count = pattern.subn(lambda _: replacement, text)
        if count != 1:
            sys.exit(f'generate.py: q{number}b: {pattern.pattern!r} matched {count} times, expected once')
    return text


def hive_text(number, text):
    applied = []
    for name, why, pattern, replacement, only in RULES:
        if only is not None and number not in only:
            continue
        text, count = pattern.subn(replacement, text)
        if count:
            applied.append(f'{why} ({count}x)')
    return text, applied


def main():
    queries = source_queries()
    if sorted(queries) != list(range(1, 100)):
        sys.exit(f'generate.py: expected queries 1 to 99, got {sorted(queries)}')
    os.makedirs(os.path.join(HERE, 'duckdb'), exist_ok=True)
    for number, text in queries.items():
        parts = [text] + ([other_part(number, text)] if number in SECOND_PARTS else [])
        if number in SHIPPED_SECOND:
            parts.reverse()
        header = f'-- TPC-DS query {number}'
        source = (f'-- From DuckDB {VERSION}\'s tpcds extension (the spec\'s qualification parameters)'
                  + (', the other part made from the shipped one by the changes of the spec\'s template' if len(parts) > 1
                     else '') + ', by tpcds-queries/generate.py.\n')
        names = ['a', 'b'] if len(parts) > 1 else ['']
        with open(os.path.join(HERE, 'duckdb', f'q{number:02d}.sql'), 'w') as out:
            out.write(header + ', as DuckDB runs it: the answer tests\' oracle.\n' + source)
            for name, part in zip(names, parts):
                out.write(f'\n-- part {number}{name}\n' if name else '\n')
                out.write(part.rstrip().rstrip(';') + ';\n')
        hive_parts = [hive_text(number, part) for part in parts]
        applied = sorted({rule for _, rules in hive_parts for rule in rules})
        with open(os.path.join(HERE, f'q{number:02d}.sql'), 'w') as out:
            out.write(header + ' for Hive 4.1.\n' + source)
            out.write('-- Hive rewrites:' + (' none' if not applied else '') + '\n')
            for rule in applied:
                out.write('\n'.join(textwrap.wrap(rule, 116, initial_indent='--   - ', subsequent_indent='--     '))
                          + '\n')
            for name, (part, _) in zip(names, hive_parts):
                out.write(f'\n-- part {number}{name}\n' if name else '\n')
                out.write(part.rstrip().rstrip(';') + ';\n')
    print(f'generate.py: wrote {len(queries)} queries to {HERE}')


if __name__ == '__main__':
    main()
