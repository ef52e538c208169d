// Differential test against DuckDB (duckdb-wasm 1.32.0, Node blocking
// bindings): one Freshet program of two tables and one materialized view per
// query below; seeded random inserts, upserts (a PRIMARY KEY row replaced) and
// deletes of timestamped rows over STEPS steps; after every step each view's
// snapshot must equal DuckDB's answer to the same query over the same rows,
// as sorted multisets of canonical rows (duckdb_oracle.mjs). The seed is
// printed; FRESHET_SEED=<n> replays a run.
//
// Each query names the features it exercises in `needs` (interval, timefn,
// now, tumble, window); the clock runs only when a query reads NOW().
//
// ## Dialect mappings (Freshet/Feldera → DuckDB), written out per query
//   EXTRACT(DOW ...), DAYOFWEEK()   Sunday = 1 .. Saturday = 7 → dayofweek(x) + 1 (DuckDB: Sunday = 0)
//   EXTRACT(ISODOW/DOY/WEEK/QUARTER/DECADE/CENTURY/MILLENNIUM/MILLISECOND/MICROSECOND)
//                                   → isodow, dayofyear, week (ISO), quarter, decade, century,
//                                     millennium, millisecond, microsecond (same numbering)
//   EXTRACT(EPOCH FROM ts)          BIGINT seconds → CAST(floor(epoch(ts)) AS BIGINT) (DuckDB: DOUBLE)
//   TIMESTAMP_TRUNC(ts, u), FLOOR(ts TO u) → date_trunc('u', ts) (as a GROUP BY key: NULLs kept NULL
//                                     by a CASE, around a DuckDB 1.4.3 bug that groups them as -infinity)
//   DATE_TRUNC(d, u)                → date_trunc('u', d) (a DATE in both)
//   CEIL(ts TO u)                   → date_trunc, plus one unit unless already on the boundary
//   TIMESTAMPADD(u, n, ts)          → ts + to_<u>s(n)
//   TIMESTAMPDIFF(u, a, b), DATEDIFF → date_sub('u', a, b) for days and shorter units: whole units
//                                     elapsed, as Feldera (DuckDB's date_diff counts boundaries
//                                     crossed instead). MONTH: calendar months from date_diff, less
//                                     one when the day and time of the month have not been reached
//                                     (Feldera's rule and MySQL's vectors in Feldera's
//                                     TimestampDiffTests); date_sub differs at month ends
//   MAKE_DATE, MAKE_TIMESTAMP       → make_date, make_timestamp (all arguments valid here: DuckDB
//                                     fails where Feldera returns NULL)
//   DATE ± year-month INTERVAL      DATE in Feldera → CAST(... AS DATE) (DuckDB: TIMESTAMP)
//   INTERVAL '1 02:03' DAY TO MINUTE → INTERVAL 1 DAY + INTERVAL 2 HOUR + INTERVAL 3 MINUTE
//   (a - b) SECOND                  (Calcite's qualified difference) → a - b
//   NOW(), CURRENT_TIMESTAMP        the step's clock (Pipeline.create's `clock` option) → the same
//                                     instant as a TIMESTAMP literal ({now} in the DuckDB SQL)
//   TUMBLE(TABLE t | (subquery), DESCRIPTOR(ts), size [, offset])
//                                   → time_bucket(size, ts, TIMESTAMP '1970-01-01' [+ offset]) AS
//                                     window_start, window_start + size AS window_end; rows with a
//                                     NULL ts are in no window (WHERE ts IS NOT NULL)
//   HOP(TABLE t, DESCRIPTOR(ts), slide, size) with size = 2 × slide
//                                   → the slide bucket and the one before it, as a UNION ALL
//   window functions                the same syntax; NULLS FIRST/LAST written out
// ## Semantic differences kept out of the queries (docs/sql.md, "Differences from DuckDB")
//   - `/` of integers is integer division in Freshet, DOUBLE division in DuckDB (DuckDB: `//`).
//   - CAST of a fractional number to an integer truncates in Freshet, rounds in DuckDB.
//   - AVG of integers truncates to the integer type in Freshet; AVG of DECIMAL keeps the
//     scale in Freshet and is a DOUBLE in DuckDB: AVG is taken of DOUBLE columns only.
//   - Default NULL order: Freshet puts NULLs last for ASC and first for DESC; DuckDB last
//     for both. Every nullable ORDER BY key states NULLS FIRST/LAST.
//   - Interval values are not compared as text (their renderings differ); intervals appear
//     only inside expressions whose results are timestamps, dates or numbers.
//   - LATENESS drops late rows in Freshet and nothing in DuckDB: not in this test (its rows
//     arrive in any order, as upserts and deletes of old rows do).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Pipeline } from 'freshet';

import {
  canonicalRows,
  columnKind,
  formatRows,
  multisetDifference,
  openDuckDB,
  sqlLiteral,
  textProjection,
} from './duckdb_oracle.mjs';
import { random, seed as testSeed } from './support.mjs';


const STEPS = 50;
//! The clock (NOW()) at step s: CLOCK_START + s × CLOCK_STEP_MS.
const CLOCK_START = Date.parse('2024-02-28T18:00:00Z');
const CLOCK_STEP_MS = 36 * 60 * 1000;

const ORDERS_COLUMNS = {
  id: 'BIGINT',
  customer: 'INT',
  amount: 'DECIMAL(10, 2)',
  price: 'DOUBLE',
  ts: 'TIMESTAMP',
  day: 'DATE',
  region: 'VARCHAR',
};
const CUSTOMERS_COLUMNS = { id: 'INT', name: 'VARCHAR', region: 'VARCHAR', tier: 'INT' };

const TABLES_SQL = `
CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer INT, amount DECIMAL(10, 2), price DOUBLE,
                     ts TIMESTAMP, day DATE, region VARCHAR);
CREATE TABLE customers (id INT NOT NULL PRIMARY KEY, name VARCHAR, region VARCHAR, tier INT);
`;
// DuckDB's tables hold the same rows; upserts are applied as delete + insert.
const DUCKDB_TABLES_SQL = `
CREATE TABLE orders (id BIGINT NOT NULL, customer INT, amount DECIMAL(10, 2), price DOUBLE,
                     ts TIMESTAMP, day DATE, region VARCHAR);
CREATE TABLE customers (id INT NOT NULL, name VARCHAR, region VARCHAR, tier INT);
`;

/**
 * The queries: name (the view), Freshet SQL, DuckDB SQL when it differs
 * ({now} is the step's clock as a TIMESTAMP literal), the features covered,
 * and the features it waits for.
 * @type {{ name: string, sql: string, duckdb?: string, covers: string, needs?: string[] }[]}
 */
const QUERIES = [
  // ---------------------------------------------------------------- today's SQL
  {
    name: 'q01_filter_project',
    covers: 'WHERE with AND/<>, projection, DOUBLE arithmetic',
    sql: `SELECT id, customer, amount, price * 2 AS price2, region FROM orders WHERE amount > 50 AND region <> 'west'`,
  },
  {
    name: 'q02_three_valued',
    covers: 'NOT, OR, IS NULL: three-valued logic in WHERE',
    sql: `SELECT id, customer FROM orders WHERE NOT (region = 'north') OR customer IS NULL`,
  },
  {
    name: 'q03_case_coalesce',
    covers: 'searched CASE, COALESCE',
    sql: `SELECT id, CASE WHEN amount >= 100 THEN 'big' WHEN amount >= 10 THEN 'mid' ELSE 'small' END AS size,
                 COALESCE(region, 'none') AS region FROM orders`,
  },
  {
    name: 'q04_strings',
    covers: 'UPPER, CHAR_LENGTH, SUBSTRING, ||, CAST to VARCHAR, LIKE',
    sql: `SELECT id, UPPER(region) AS r, CHAR_LENGTH(region) AS n, SUBSTRING(region, 2, 3) AS s,
                 region || '-' || CAST(customer AS VARCHAR) AS tag FROM orders WHERE region LIKE '%th'`,
  },
  {
    name: 'q05_group_by',
    covers: 'GROUP BY a nullable key; COUNT(*), COUNT(x), SUM(DECIMAL), MIN/MAX/AVG(DOUBLE)',
    sql: `SELECT region, COUNT(*) AS n, COUNT(customer) AS nc, SUM(amount) AS total, MIN(price) AS lo,
                 MAX(price) AS hi, AVG(price) AS avg_price FROM orders GROUP BY region`,
  },
  {
    name: 'q06_global_aggregate',
    covers: 'aggregates without GROUP BY (one row, also over no rows); MAX(TIMESTAMP), MIN(DATE)',
    sql: `SELECT COUNT(*) AS n, SUM(amount) AS total, MAX(ts) AS last_ts, MIN(day) AS first_day FROM orders`,
  },
  {
    name: 'q07_having_count_distinct',
    covers: 'COUNT(DISTINCT), HAVING over an aggregate',
    sql: `SELECT customer, COUNT(DISTINCT region) AS regions, SUM(amount) AS total FROM orders
          GROUP BY customer HAVING COUNT(*) >= 2`,
  },
  {
    name: 'q08_join_group_by',
    covers: 'inner equi-join then GROUP BY (the join_aggregate operator)',
    sql: `SELECT c.region, COUNT(*) AS n, SUM(o.amount) AS total FROM orders o JOIN customers c ON o.customer = c.id
          GROUP BY c.region`,
  },
  {
    name: 'q09_left_join',
    covers: 'LEFT JOIN: unmatched rows padded with NULLs, customers upserted',
    sql: `SELECT o.id, c.name, c.tier FROM orders o LEFT JOIN customers c ON o.customer = c.id`,
  },
  {
    name: 'q10_join_residual',
    covers: 'inner join with an equi key and a residual condition',
    sql: `SELECT o.id, c.id AS cid FROM orders o JOIN customers c ON o.customer = c.id AND o.region <> c.region`,
  },
  {
    name: 'q11_left_join_residual',
    covers: 'LEFT JOIN with a residual condition on the right side',
    sql: `SELECT o.id, c.name FROM orders o LEFT JOIN customers c ON o.customer = c.id AND c.tier > 1`,
  },
  {
    name: 'q12_distinct',
    covers: 'SELECT DISTINCT with NULLs',
    sql: `SELECT DISTINCT region, customer FROM orders`,
  },
  {
    name: 'q13_union',
    covers: 'UNION (a set) of two tables',
    sql: `SELECT region FROM orders UNION SELECT region FROM customers`,
  },
  {
    name: 'q14_union_all',
    covers: 'UNION ALL keeps duplicates',
    sql: `SELECT customer AS c FROM orders WHERE amount > 100 UNION ALL SELECT id AS c FROM customers WHERE tier = 3`,
  },
  {
    name: 'q15_except',
    covers: 'EXCEPT (a set; NULLs equal)',
    sql: `SELECT customer FROM orders EXCEPT SELECT id FROM customers`,
  },
  {
    name: 'q16_top_k',
    covers: 'ORDER BY ... LIMIT as an incremental top-k, DESC NULLS LAST, a tie-break',
    sql: `SELECT id, amount, customer FROM orders ORDER BY amount DESC NULLS LAST, id LIMIT 5`,
  },
  {
    name: 'q17_top_k_of_aggregate',
    covers: 'top-k over a GROUP BY',
    sql: `SELECT customer, SUM(amount) AS total FROM orders GROUP BY customer
          ORDER BY total DESC NULLS LAST, customer NULLS LAST LIMIT 3`,
  },
  {
    name: 'q18_extract_basic',
    covers: 'EXTRACT(YEAR/MONTH/DAY/HOUR) from TIMESTAMP and DATE, TIMESTAMP literal filter',
    sql: `SELECT id, EXTRACT(YEAR FROM ts) AS y, EXTRACT(MONTH FROM ts) AS mo, EXTRACT(DAY FROM day) AS d,
                 EXTRACT(HOUR FROM ts) AS h FROM orders WHERE ts >= TIMESTAMP '2024-02-29 00:00:00'`,
  },
  {
    name: 'q19_group_by_day_hour',
    covers: 'GROUP BY CAST(ts AS DATE) and an extracted hour (crossing midnight and the leap day)',
    sql: `SELECT CAST(ts AS DATE) AS d, EXTRACT(HOUR FROM ts) AS h, COUNT(*) AS n, SUM(price) AS s FROM orders
          GROUP BY CAST(ts AS DATE), EXTRACT(HOUR FROM ts)`,
  },
  {
    name: 'q20_subquery_join_aggregate',
    covers: 'an aggregate subquery joined, then aggregated again',
    sql: `SELECT c.tier, MAX(t.total) AS best
          FROM (SELECT customer, SUM(amount) AS total FROM orders GROUP BY customer) t
          JOIN customers c ON t.customer = c.id GROUP BY c.tier`,
  },
  {
    name: 'q21_between_in_dates',
    covers: 'BETWEEN on DATE literals, IN list',
    sql: `SELECT id, day FROM orders WHERE day BETWEEN DATE '2024-02-27' AND DATE '2024-03-01'
          AND region IN ('north', 'south')`,
  },
  {
    name: 'q22_decimal_arithmetic',
    covers: 'DECIMAL * integer, + literal, ABS, ROUND(DECIMAL, 1)',
    sql: `SELECT id, amount * 3 AS tripled, amount + 0.50 AS plus, ABS(amount - 100) AS dist,
                 ROUND(amount, 1) AS rounded FROM orders`,
  },
  {
    name: 'q23_cross_join_where',
    covers: 'CROSS JOIN filtered by WHERE, GROUP BY two keys',
    sql: `SELECT o.region, c.region AS cregion, COUNT(*) AS n FROM orders o CROSS JOIN customers c
          WHERE o.customer = c.id GROUP BY o.region, c.region`,
  },
  // ---------------------------------------------------------------- INTERVAL
  {
    name: 'q24_interval_arithmetic',
    needs: ['interval'],
    covers: 'TIMESTAMP + day-time INTERVAL (minutes), TIMESTAMP - INTERVAL DAY in WHERE',
    sql: `SELECT id, ts + INTERVAL '90' MINUTE AS due FROM orders
          WHERE ts - INTERVAL '1' DAY > TIMESTAMP '2024-02-28 00:00:00'`,
  },
  {
    name: 'q25_month_interval_on_date',
    needs: ['interval'],
    covers: 'DATE ± year-month INTERVAL, month-end clamping (Jan 31 + 1 month = Feb 29)',
    sql: `SELECT id, day + INTERVAL '1' MONTH AS next_month, day - INTERVAL '1-1' YEAR TO MONTH AS back FROM orders`,
    duckdb: `SELECT id, CAST(day + INTERVAL 1 MONTH AS DATE) AS next_month,
                    CAST(day - INTERVAL 13 MONTH AS DATE) AS back FROM orders`,
  },
  {
    name: 'q26_day_to_minute',
    needs: ['interval'],
    covers: "INTERVAL '1 02:03' DAY TO MINUTE and HOUR in a BETWEEN",
    sql: `SELECT id FROM orders WHERE ts BETWEEN TIMESTAMP '2024-02-29 00:00:00' - INTERVAL '1 02:03' DAY TO MINUTE
                                          AND TIMESTAMP '2024-02-29 00:00:00' + INTERVAL '3' HOUR`,
    duckdb: `SELECT id FROM orders WHERE ts BETWEEN TIMESTAMP '2024-02-29 00:00:00'
                                                   - (INTERVAL 1 DAY + INTERVAL 2 HOUR + INTERVAL 3 MINUTE)
                                           AND TIMESTAMP '2024-02-29 00:00:00' + INTERVAL 3 HOUR`,
  },
  {
    name: 'q27_interval_times_number',
    needs: ['interval'],
    covers: 'INTERVAL × a nullable integer column',
    sql: `SELECT id, ts - INTERVAL '10' MINUTE * customer AS shifted FROM orders`,
    duckdb: `SELECT id, ts - INTERVAL 10 MINUTE * customer AS shifted FROM orders`,
  },
  {
    name: 'q28_timestamp_difference',
    needs: ['interval'],
    covers: 'TIMESTAMP - TIMESTAMP as a day-time interval, compared with an INTERVAL',
    sql: `SELECT id, day FROM orders WHERE (ts - CAST(day AS TIMESTAMP)) SECOND > INTERVAL '12' HOUR`,
    duckdb: `SELECT id, day FROM orders WHERE ts - CAST(day AS TIMESTAMP) > INTERVAL 12 HOUR`,
  },
  {
    name: 'q29_interval_negation',
    needs: ['interval'],
    covers: 'unary minus of an INTERVAL',
    sql: `SELECT id, ts + (-INTERVAL '30' MINUTE) AS earlier FROM orders`,
    duckdb: `SELECT id, ts + (-INTERVAL 30 MINUTE) AS earlier FROM orders`,
  },
  // ---------------------------------------------------------------- time functions
  {
    name: 'q30_timestamp_trunc_hour',
    needs: ['timefn'],
    covers: 'TIMESTAMP_TRUNC(ts, HOUR) as a GROUP BY key',
    sql: `SELECT TIMESTAMP_TRUNC(ts, HOUR) AS hour, COUNT(*) AS n, SUM(amount) AS total FROM orders
          GROUP BY TIMESTAMP_TRUNC(ts, HOUR)`,
    // DuckDB 1.4.3 (duckdb-wasm 1.32.0) groups the NULLs of date_trunc('hour', ts) under a key
    // of -infinity instead of NULL; the CASE keeps them NULL.
    duckdb: `SELECT hour, COUNT(*) AS n, SUM(amount) AS total
             FROM (SELECT CASE WHEN ts IS NULL THEN NULL ELSE date_trunc('hour', ts) END AS hour, amount FROM orders) h
             GROUP BY hour`,
  },
  {
    name: 'q31_date_trunc',
    needs: ['timefn'],
    covers: 'DATE_TRUNC(date, MONTH / QUARTER) as GROUP BY keys',
    sql: `SELECT DATE_TRUNC(day, MONTH) AS m, DATE_TRUNC(day, QUARTER) AS q, COUNT(*) AS n FROM orders
          GROUP BY DATE_TRUNC(day, MONTH), DATE_TRUNC(day, QUARTER)`,
    duckdb: `SELECT date_trunc('month', day) AS m, date_trunc('quarter', day) AS q, COUNT(*) AS n FROM orders
             GROUP BY date_trunc('month', day), date_trunc('quarter', day)`,
  },
  {
    name: 'q32_floor_ceil',
    needs: ['timefn'],
    covers: 'FLOOR(ts TO MINUTE), CEIL(ts TO HOUR) (a value on the boundary stays)',
    sql: `SELECT id, FLOOR(ts TO MINUTE) AS f, CEIL(ts TO HOUR) AS c FROM orders`,
    duckdb: `SELECT id, date_trunc('minute', ts) AS f,
                    CASE WHEN date_trunc('hour', ts) = ts THEN ts ELSE date_trunc('hour', ts) + INTERVAL 1 HOUR END AS c
             FROM orders`,
  },
  {
    name: 'q33_extract_fields',
    needs: ['timefn'],
    covers: 'EXTRACT DOW (Sunday = 1), ISODOW, DOY, WEEK, QUARTER, MINUTE, SECOND, MILLISECOND',
    sql: `SELECT id, EXTRACT(DOW FROM ts) AS dow, EXTRACT(ISODOW FROM ts) AS isodow, EXTRACT(DOY FROM ts) AS doy,
                 EXTRACT(WEEK FROM ts) AS wk, EXTRACT(QUARTER FROM ts) AS q, EXTRACT(MINUTE FROM ts) AS mi,
                 EXTRACT(SECOND FROM ts) AS s, EXTRACT(MILLISECOND FROM ts) AS ms FROM orders`,
    duckdb: `SELECT id, dayofweek(ts) + 1 AS dow, isodow(ts) AS isodow, dayofyear(ts) AS doy, week(ts) AS wk,
                    quarter(ts) AS q, minute(ts) AS mi, second(ts) AS s, millisecond(ts) AS ms FROM orders`,
  },
  {
    name: 'q34_extract_epoch_and_eras',
    needs: ['timefn'],
    covers: 'EXTRACT EPOCH, MICROSECOND from TIMESTAMP; DECADE, CENTURY, MILLENNIUM from DATE',
    sql: `SELECT id, EXTRACT(EPOCH FROM ts) AS epoch, EXTRACT(MICROSECOND FROM ts) AS us,
                 EXTRACT(DECADE FROM day) AS dec, EXTRACT(CENTURY FROM day) AS cent,
                 EXTRACT(MILLENNIUM FROM day) AS mil FROM orders`,
    duckdb: `SELECT id, CAST(floor(epoch(ts)) AS BIGINT) AS epoch, microsecond(ts) AS us, decade(day) AS dec,
                    century(day) AS cent, millennium(day) AS mil FROM orders`,
  },
  {
    name: 'q35_shorthands_group_by',
    needs: ['timefn'],
    covers: 'DAYOFWEEK(ts), HOUR(ts) shorthands as GROUP BY keys',
    sql: `SELECT DAYOFWEEK(ts) AS dow, HOUR(ts) AS h, COUNT(*) AS n FROM orders GROUP BY DAYOFWEEK(ts), HOUR(ts)`,
    duckdb: `SELECT dayofweek(ts) + 1 AS dow, hour(ts) AS h, COUNT(*) AS n FROM orders
             GROUP BY dayofweek(ts) + 1, hour(ts)`,
  },
  {
    name: 'q36_timestampadd_diff',
    needs: ['timefn'],
    covers: 'TIMESTAMPADD(MINUTE, n, ts), TIMESTAMPDIFF(HOUR / MONTH, a, b) (negative spans too)',
    sql: `SELECT id, TIMESTAMPADD(MINUTE, customer, ts) AS shifted,
                 TIMESTAMPDIFF(HOUR, CAST(day AS TIMESTAMP), ts) AS hours,
                 TIMESTAMPDIFF(MONTH, ts, CAST(day AS TIMESTAMP)) AS months FROM orders`,
    // Months as Feldera (and MySQL) count them: calendar months, less one when the end's day
    // and time of the month have not reached the start's (DuckDB's date_sub treats the last day
    // of a month as reaching any later day: 2024-01-31 to 2024-02-29 is 1 there, 0 here).
    duckdb: `SELECT id, ts + to_minutes(CAST(customer AS BIGINT)) AS shifted,
                    date_sub('hour', b, ts) AS hours,
                    date_diff('month', ts, b) - CASE
                      WHEN date_diff('month', ts, b) > 0 AND b - date_trunc('month', b) < ts - date_trunc('month', ts) THEN 1
                      WHEN date_diff('month', ts, b) < 0 AND b - date_trunc('month', b) > ts - date_trunc('month', ts) THEN -1
                      ELSE 0 END AS months
             FROM (SELECT *, CAST(day AS TIMESTAMP) AS b FROM orders) o`,
  },
  {
    name: 'q37_make_date_timestamp',
    needs: ['timefn'],
    covers: 'MAKE_DATE, MAKE_TIMESTAMP, YEAR/MONTH/DAYOFMONTH/HOUR shorthands',
    sql: `SELECT id, MAKE_DATE(YEAR(ts), MONTH(ts), 1) AS month_start,
                 MAKE_TIMESTAMP(YEAR(day), MONTH(day), DAYOFMONTH(day), HOUR(ts), 0, 0) AS at_hour FROM orders`,
    duckdb: `SELECT id, make_date(year(ts), month(ts), 1) AS month_start,
                    make_timestamp(year(day), month(day), day(day), hour(ts), 0, 0.0) AS at_hour FROM orders`,
  },
  {
    name: 'q38_datediff_days',
    needs: ['timefn'],
    covers: 'DATEDIFF(DAY, date, date)',
    sql: `SELECT id, DATEDIFF(DAY, day, CAST(ts AS DATE)) AS days FROM orders`,
    duckdb: `SELECT id, date_sub('day', day, CAST(ts AS DATE)) AS days FROM orders`,
  },
  // ---------------------------------------------------------------- NOW()
  {
    name: 'q39_now_last_hour',
    needs: ['now', 'interval'],
    covers: 'temporal filter ts > NOW() - INTERVAL: rows leave as the clock passes them',
    sql: `SELECT id, customer, amount FROM orders WHERE ts > NOW() - INTERVAL '1' HOUR`,
    duckdb: `SELECT id, customer, amount FROM orders WHERE ts > {now} - INTERVAL 1 HOUR`,
  },
  {
    name: 'q40_now_window_aggregate',
    needs: ['now', 'interval'],
    covers: 'a two-sided temporal filter (last day, not in the future) under GROUP BY',
    sql: `SELECT region, COUNT(*) AS n, SUM(amount) AS total FROM orders
          WHERE ts >= NOW() - INTERVAL '1' DAY AND ts <= NOW() GROUP BY region`,
    duckdb: `SELECT region, COUNT(*) AS n, SUM(amount) AS total FROM orders
             WHERE ts >= {now} - INTERVAL 1 DAY AND ts <= {now} GROUP BY region`,
  },
  {
    name: 'q41_current_timestamp_future',
    needs: ['now'],
    covers: 'CURRENT_TIMESTAMP: future rows leave the view when the clock reaches them',
    sql: `SELECT id FROM orders WHERE ts > CURRENT_TIMESTAMP`,
    duckdb: `SELECT id FROM orders WHERE ts > {now}`,
  },
  // ---------------------------------------------------------------- TUMBLE / HOP
  {
    name: 'q42_tumble_revenue',
    needs: ['tumble', 'interval'],
    covers: 'TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL)) grouped by window_start, window_end',
    sql: `SELECT window_start, window_end, SUM(amount) AS revenue, COUNT(*) AS n
          FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '15' MINUTE))
          GROUP BY window_start, window_end`,
    duckdb: `SELECT window_start, window_start + INTERVAL 15 MINUTE AS window_end, SUM(amount) AS revenue, COUNT(*) AS n
             FROM (SELECT *, time_bucket(INTERVAL 15 MINUTE, ts, TIMESTAMP '1970-01-01') AS window_start
                   FROM orders WHERE ts IS NOT NULL) w
             GROUP BY window_start`,
  },
  {
    name: 'q43_tumble_named',
    needs: ['tumble', 'interval'],
    covers: 'TUMBLE with named parameters (data =>, timecol =>, size =>), per region',
    sql: `SELECT region, window_start, COUNT(*) AS n
          FROM TABLE(TUMBLE(data => TABLE orders, timecol => DESCRIPTOR(ts), size => INTERVAL '1' HOUR))
          GROUP BY region, window_start`,
    duckdb: `SELECT region, time_bucket(INTERVAL 1 HOUR, ts, TIMESTAMP '1970-01-01') AS window_start, COUNT(*) AS n
             FROM orders WHERE ts IS NOT NULL GROUP BY region, 2`,
  },
  {
    name: 'q44_hop',
    needs: ['tumble', 'interval'],
    covers: 'TABLE(HOP(..., slide, size)): each row in two overlapping windows',
    sql: `SELECT window_start, window_end, COUNT(*) AS n, MAX(price) AS hi
          FROM TABLE(HOP(TABLE orders, DESCRIPTOR(ts), INTERVAL '30' MINUTE, INTERVAL '1' HOUR))
          GROUP BY window_start, window_end`,
    duckdb: `WITH buckets AS (SELECT time_bucket(INTERVAL 30 MINUTE, ts, TIMESTAMP '1970-01-01') AS b, price
                             FROM orders WHERE ts IS NOT NULL),
                  hops AS (SELECT b AS window_start, price FROM buckets
                           UNION ALL SELECT b - INTERVAL 30 MINUTE AS window_start, price FROM buckets)
             SELECT window_start, window_start + INTERVAL 1 HOUR AS window_end, COUNT(*) AS n, MAX(price) AS hi
             FROM hops GROUP BY window_start`,
  },
  {
    name: 'q45_tumble_subquery_offset_join',
    needs: ['tumble', 'interval'],
    covers: 'TUMBLE over a subquery, with an offset, joined with a table',
    sql: `SELECT w.window_start, c.tier, COUNT(*) AS n
          FROM TABLE(TUMBLE((SELECT id, customer, ts FROM orders WHERE amount > 20), DESCRIPTOR(ts),
                            INTERVAL '2' HOUR, INTERVAL '30' MINUTE)) w
          JOIN customers c ON w.customer = c.id
          GROUP BY w.window_start, c.tier`,
    duckdb: `SELECT time_bucket(INTERVAL 2 HOUR, o.ts, TIMESTAMP '1970-01-01 00:30:00') AS window_start, c.tier,
                    COUNT(*) AS n
             FROM orders o JOIN customers c ON o.customer = c.id
             WHERE o.ts IS NOT NULL AND o.amount > 20 GROUP BY 1, c.tier`,
  },
  // ---------------------------------------------------------------- window functions
  {
    name: 'q46_row_number_top_k',
    needs: ['window'],
    covers: 'ROW_NUMBER() ... WHERE rn <= 3: the incremental top-k per group',
    sql: `SELECT id, customer, amount, rn FROM (
            SELECT id, customer, amount,
                   ROW_NUMBER() OVER (PARTITION BY customer ORDER BY amount DESC NULLS LAST, id) AS rn
            FROM orders) t
          WHERE rn <= 3`,
  },
  {
    name: 'q47_rank',
    needs: ['window'],
    covers: 'RANK() with ties, top 2 ranks per customer',
    sql: `SELECT customer, amount, rk FROM (
            SELECT customer, amount, RANK() OVER (PARTITION BY customer ORDER BY amount DESC NULLS LAST) AS rk
            FROM orders) t
          WHERE rk <= 2`,
  },
  {
    name: 'q48_dense_rank',
    needs: ['window'],
    covers: 'DENSE_RANK() per region over a DOUBLE with ties and NULLs',
    sql: `SELECT region, price, dr FROM (
            SELECT region, price, DENSE_RANK() OVER (PARTITION BY region ORDER BY price NULLS LAST) AS dr
            FROM orders) t
          WHERE dr <= 3`,
  },
  {
    name: 'q49_lag_lead',
    needs: ['window'],
    covers: 'LAG(x), LEAD(x, 2, default)',
    sql: `SELECT id, customer, LAG(amount) OVER (PARTITION BY customer ORDER BY id) AS prev,
                 LEAD(amount, 2, 0) OVER (PARTITION BY customer ORDER BY id) AS next2 FROM orders`,
  },
  {
    name: 'q50_running_sum',
    needs: ['window'],
    covers: 'SUM OVER ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW (a running total)',
    sql: `SELECT id, customer, SUM(amount) OVER (PARTITION BY customer ORDER BY id
                                                ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running
          FROM orders`,
  },
  {
    name: 'q51_moving_average',
    needs: ['window'],
    covers: 'AVG OVER ROWS BETWEEN 2 PRECEDING AND CURRENT ROW (a moving average)',
    sql: `SELECT id, region, AVG(price) OVER (PARTITION BY region ORDER BY id
                                            ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS moving
          FROM orders`,
  },
  {
    name: 'q52_range_interval_frame',
    needs: ['window', 'interval'],
    covers: 'SUM and COUNT OVER RANGE BETWEEN INTERVAL PRECEDING AND CURRENT ROW (peers included)',
    sql: `SELECT id, customer, ts,
                 SUM(amount) OVER (PARTITION BY customer ORDER BY ts
                                   RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) AS last_hour,
                 COUNT(*) OVER (PARTITION BY customer ORDER BY ts
                                RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) AS n
          FROM orders WHERE ts IS NOT NULL`,
    duckdb: `SELECT id, customer, ts,
                    SUM(amount) OVER (PARTITION BY customer ORDER BY ts
                                      RANGE BETWEEN INTERVAL 1 HOUR PRECEDING AND CURRENT ROW) AS last_hour,
                    COUNT(*) OVER (PARTITION BY customer ORDER BY ts
                                   RANGE BETWEEN INTERVAL 1 HOUR PRECEDING AND CURRENT ROW) AS n
             FROM orders WHERE ts IS NOT NULL`,
  },
  {
    name: 'q53_max_rows_following',
    needs: ['window'],
    covers: 'MAX OVER ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING',
    sql: `SELECT id, region, MAX(price) OVER (PARTITION BY region ORDER BY id
                                            ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS hi3
          FROM orders`,
  },
  {
    name: 'q54_partition_count_default_frame',
    needs: ['window'],
    covers: 'COUNT(*) OVER (PARTITION BY) (whole partition); SUM OVER ORDER BY with the default frame',
    sql: `SELECT id, customer, COUNT(*) OVER (PARTITION BY customer) AS orders_of_customer,
                 SUM(price) OVER (PARTITION BY customer ORDER BY id) AS running_default FROM orders`,
  },
  // ---------------------------------------------------------------- LATERAL subqueries reading the left
  {
    name: 'q55_lateral_aggregate',
    covers: 'comma LATERAL over an aggregate without GROUP BY: a row for every customer, COUNT 0 when none match',
    sql: `SELECT c.id, s.n, s.total FROM customers c,
          LATERAL (SELECT COUNT(*) AS n, SUM(amount) AS total FROM orders o WHERE o.customer = c.id) AS s`,
  },
  {
    name: 'q56_cross_join_lateral_rows',
    covers: 'CROSS JOIN LATERAL of rows, correlated on an equality plus a filter',
    sql: `SELECT c.id, s.oid, s.amount FROM customers c CROSS JOIN LATERAL
          (SELECT o.id AS oid, o.amount FROM orders o WHERE o.customer = c.id AND o.amount > 50) AS s`,
  },
  {
    name: 'q57_left_join_lateral_residual',
    covers: 'LEFT JOIN LATERAL ... ON TRUE, correlated on an equality and a non-equality',
    sql: `SELECT c.id, s.oid FROM customers c LEFT JOIN LATERAL
          (SELECT o.id AS oid FROM orders o WHERE o.customer = c.id AND o.region <> c.region) AS s ON TRUE`,
  },
  {
    name: 'q58_lateral_having',
    covers: 'LATERAL over an aggregate with HAVING: the refused empty group gives no row',
    sql: `SELECT c.id, s.n FROM customers c,
          LATERAL (SELECT COUNT(*) AS n FROM orders o WHERE o.customer = c.id HAVING COUNT(*) > 1) AS s`,
  },
  {
    name: 'q59_left_join_lateral_on',
    covers: 'LEFT JOIN LATERAL with an ON condition over both sides',
    sql: `SELECT c.id, s.oid FROM customers c LEFT JOIN LATERAL
          (SELECT o.id AS oid, o.amount FROM orders o WHERE o.customer = c.id) AS s ON s.amount > c.tier * 40`,
  },
  {
    name: 'q60_lateral_group_by',
    covers: 'LATERAL with GROUP BY, and column aliases on the LATERAL',
    sql: `SELECT c.id, s.r, s.t FROM customers c, LATERAL
          (SELECT region, SUM(amount) FROM orders o WHERE o.customer = c.id GROUP BY region) AS s (r, t)`,
  },
  {
    name: 'q61_left_lateral_having_nulls',
    covers: 'LEFT JOIN LATERAL over an aggregate with HAVING: NULLs for the refused empty group',
    sql: `SELECT c.id, s.top FROM customers c LEFT JOIN LATERAL
          (SELECT MAX(amount) AS top FROM orders o WHERE o.customer = c.id AND o.region = c.region
           HAVING COUNT(*) > 0) AS s ON TRUE`,
  },
  {
    name: 'q62_lateral_non_equi_only',
    covers: 'LATERAL correlated on a non-equality only (joined on the distinct left values it reads)',
    sql: `SELECT c.id, s.n FROM customers c,
          LATERAL (SELECT COUNT(*) AS n FROM orders o WHERE o.amount > c.tier * 30) AS s`,
  },
  {
    name: 'q63_ilike_escape',
    covers: 'ILIKE, NOT ILIKE, LIKE ... ESCAPE and ILIKE ... ESCAPE over names and regions with _ and %',
    sql: `SELECT id, name ILIKE 'C1%' AS c1, region NOT ILIKE '%TH' AS not_th,
                 name || '_' || region LIKE '%x#_%' ESCAPE '#' AS x_under,
                 region || '%' ILIKE 'N%!%' ESCAPE '!' AS n_pct FROM customers`,
  },
  {
    name: 'q64_double_colon',
    covers: 'x::type casts: chained, beside a sign, in WHERE (no fractional number to an integer: DuckDB rounds it)',
    sql: `SELECT id, customer::VARCHAR AS c, -(amount * 100)::BIGINT AS neg, (amount::DECIMAL(14, 3) * 2)::VARCHAR AS a3,
                 day::TIMESTAMP AS at FROM orders WHERE customer::BIGINT > 2`,
  },
  {
    name: 'q65_first_last_value',
    covers: 'FIRST_VALUE with the default frame and over the whole partition in DESC order; LAST_VALUE to UNBOUNDED FOLLOWING',
    sql: `SELECT id, FIRST_VALUE(amount) OVER (PARTITION BY customer ORDER BY ts NULLS LAST, id) AS first_amount,
                 LAST_VALUE(region) OVER (PARTITION BY customer ORDER BY ts NULLS LAST, id
                                          ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last_region,
                 FIRST_VALUE(price) OVER (PARTITION BY region ORDER BY id DESC
                                          RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS newest_price
          FROM orders`,
  },
];


// ------------------------------------------------------------------ the data

function pad(n, width = 2) {
  return String(n).padStart(width, '0');
}

/** 'YYYY-MM-DD HH:MM:SS[.fff]' of epoch milliseconds (UTC). */
function timestampText(ms) {
  const d = new Date(ms);
  const base = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return d.getUTCMilliseconds() ? `${base}.${pad(d.getUTCMilliseconds(), 3)}` : base;
}

const REGIONS = ['north', 'south', 'east', 'west'];
const FIRST_DAY = Date.parse('2024-01-29T00:00:00Z');
const DAY_MS = 86400 * 1000;

/** Random rows and changes, all derived from one seed. */
class Workload {
  constructor(rng) {
    this.rng = rng;
    this.nextOrderId = 1;
    /** @type {Map<number, object>} */ this.orders = new Map();
    /** @type {Map<number, object>} */ this.customers = new Map();
  }

  int(low, high) {
    return low + Math.floor(this.rng() * (high - low + 1));
  }

  maybe(probability, value) {
    return this.rng() < probability ? null : value;
  }

  pick(items) {
    return items[Math.floor(this.rng() * items.length)];
  }

  order(id, clockMs) {
    // Timestamps from 30 hours before the clock to 1 hour after it, on whole
    // seconds or (one in five) on milliseconds, so that views cross midnight,
    // the leap day and the end of February as the clock moves.
    let ts = clockMs + this.int(-30 * 3600, 3600) * 1000;
    if (this.rng() < 0.2) ts += this.int(1, 999);
    return {
      id,
      customer: this.maybe(0.08, this.int(1, 14)),
      amount: this.maybe(0.05, this.int(0, 20000) / 100),
      price: this.maybe(0.05, this.int(0, 5000) / 100),
      ts: this.maybe(0.05, timestampText(ts)),
      day: this.maybe(0.05, timestampText(FIRST_DAY + this.int(0, 34) * DAY_MS).slice(0, 10)),
      region: this.maybe(0.1, this.pick(REGIONS)),
    };
  }

  customer(id) {
    return {
      id,
      name: this.maybe(0.1, `c${id}${this.pick(['', 'x', 'yy'])}`),
      region: this.maybe(0.1, this.pick(REGIONS)),
      tier: this.maybe(0.1, this.int(1, 3)),
    };
  }

  /**
   * One step's changes: every key touched at most once, so the order of the
   * changes inside a step does not matter. Returns { table: { upserts, deletes } }.
   */
  changes(step, clockMs) {
    const orders = { upserts: [], deletes: [] };
    const customers = { upserts: [], deletes: [] };
    const touched = new Set();
    const count = step === 0 ? 40 : this.int(1, 8);
    for (let i = 0; i < count; ++i) {
      const existing = [...this.orders.keys()].filter((id) => !touched.has(id));
      const roll = this.rng();
      if (existing.length === 0 || roll < 0.5) {
        const row = this.order(this.nextOrderId++, clockMs);
        orders.upserts.push(row);
        touched.add(row.id);
      } else {
        const id = this.pick(existing);
        touched.add(id);
        if (roll < 0.75) orders.upserts.push(this.order(id, clockMs));
        else orders.deletes.push(id);
      }
    }
    const customerChanges = step === 0 ? 12 : this.int(0, 2);
    const customerTouched = new Set();
    for (let i = 0; i < customerChanges; ++i) {
      const id = step === 0 ? i + 1 : this.int(1, 12);
      if (customerTouched.has(id)) continue;
      customerTouched.add(id);
      if (step > 0 && this.customers.has(id) && this.rng() < 0.3) customers.deletes.push(id);
      else customers.upserts.push(this.customer(id));
    }
    for (const row of orders.upserts) this.orders.set(row.id, row);
    for (const id of orders.deletes) this.orders.delete(id);
    for (const row of customers.upserts) this.customers.set(row.id, row);
    for (const id of customers.deletes) this.customers.delete(id);
    return { orders, customers };
  }
}

// ------------------------------------------------------------------ the two engines

/** Applies one step's changes to DuckDB's tables (upserts as delete + insert). */
function applyToDuckDB(duck, changes) {
  const schemas = { orders: ORDERS_COLUMNS, customers: CUSTOMERS_COLUMNS };
  for (const [table, { upserts, deletes }] of Object.entries(changes)) {
    const columns = schemas[table];
    const keys = [...deletes, ...upserts.map((row) => row.id)];
    if (keys.length) duck.query(`DELETE FROM ${table} WHERE id IN (${keys.join(', ')})`);
    if (!upserts.length) continue;
    const tuples = upserts.map(
      (row) => `(${Object.entries(columns).map(([name, type]) => sqlLiteral(row[name], type)).join(', ')})`,
    );
    duck.query(`INSERT INTO ${table} VALUES ${tuples.join(', ')}`);
  }
}

/** Applies one step's changes to the Freshet pipeline (inserting an existing key replaces its row). */
function applyToFreshet(pipeline, changes) {
  for (const [table, { upserts, deletes }] of Object.entries(changes)) {
    if (deletes.length) pipeline.delete(table, deletes.map((id) => ({ id })));
    if (upserts.length) pipeline.insert(table, upserts);
  }
}

/** What the pipeline's clock reads (Pipeline.create's `clock` option). */
const clock = { now: CLOCK_START };

/**
 * Runs one step with NOW() at `clockMs`. A paused pipeline's explicit step
 * keeps the time of the pause, so a program that reads the clock
 * is started for the step and paused again (no timer runs in between: the
 * loop never yields).
 */
function stepAt(pipeline, clockMs, usesClock) {
  if (!usesClock) return pipeline.step();
  clock.now = clockMs;
  pipeline.start();
  const result = pipeline.step();
  pipeline.pause();
  return result;
}

function duckdbSql(query, clockMs) {
  return (query.duckdb ?? query.sql).replaceAll('{now}', `TIMESTAMP '${timestampText(clockMs)}'`);
}

/** Creates the Freshet pipeline; when the program does not compile, names the query that fails. */
async function createPipeline(queries, usesClock) {
  const program = (qs) =>
    TABLES_SQL + qs.map((q) => `CREATE MATERIALIZED VIEW ${q.name} AS\n${q.sql};\n`).join('');
  const options = usesClock ? { clock: () => clock.now } : {};
  try {
    return await Pipeline.create({ sql: program(queries), ...options });
  } catch (error) {
    for (const query of queries) {
      try {
        (await Pipeline.create({ sql: program([query]), ...options })).close();
      } catch (single) {
        throw new Error(`query ${query.name} does not compile in Freshet: ${single.message}\n${query.sql}`);
      }
    }
    throw error;
  }
}

// ------------------------------------------------------------------ the tests

/**
 * Each query's columns and how to compare them, from DuckDB's types; a
 * translation that DuckDB refuses fails here, naming the query.
 */
function comparisonPlans(duck) {
  const described = new Map();
  for (const query of QUERIES) {
    try {
      described.set(query, duck.columns(duckdbSql(query, CLOCK_START)));
    } catch (error) {
      throw new Error(`query ${query.name} does not run in DuckDB: ${error.message}\n${duckdbSql(query, CLOCK_START)}`);
    }
  }
  return QUERIES.map((query) => {
    const raw = described.get(query);
    return { query, raw, columns: raw.map((c) => ({ name: c.name.toLowerCase(), kind: columnKind(c.type) })) };
  });
}

/** Compares one view with DuckDB's answer at `clockMs`: null when equal, else a readable report. */
function compareView(pipeline, duck, { query, columns, raw }, clockMs) {
  const sql = duckdbSql(query, clockMs);
  const oracle = canonicalRows(duck.query(textProjection(sql, raw)), columns);
  const snapshot = pipeline.snapshot(query.name);
  const missing = snapshot.length ? columns.filter(({ name }) => !(name in snapshot[0])) : [];
  if (missing.length) {
    return `${query.name}: Freshet's view has no column ${missing.map((c) => c.name).join(', ')} ` +
      `(its columns: ${Object.keys(snapshot[0]).join(', ')}); name the columns alike in both queries`;
  }
  const mine = canonicalRows(snapshot, columns);
  const difference = multisetDifference(mine, oracle);
  if (!difference) return null;
  return `${query.name} (${query.covers}): Freshet has ${mine.length} rows, DuckDB ${oracle.length}\n` +
    `  only in Freshet (${difference.counts.onlyFreshet}, first ${difference.onlyFreshet.length}):\n` +
    `${formatRows(difference.onlyFreshet, columns)}\n` +
    `  only in DuckDB (${difference.counts.onlyOracle}, first ${difference.onlyOracle.length}):\n` +
    `${formatRows(difference.onlyOracle, columns)}\n` +
    `  Freshet SQL: ${query.sql.replace(/\s+/g, ' ')}\n` +
    (query.duckdb ? `  DuckDB SQL:  ${sql.replace(/\s+/g, ' ')}\n` : '');
}

test(`DuckDB differential: ${QUERIES.length} queries over ${STEPS} steps of inserts, upserts and deletes`, async () => {
  assert.ok(QUERIES.length >= 40, 'the query table keeps at least 40 queries');
  const seed = testSeed('duckdb_differential');
  const usesClock = QUERIES.some((q) => (q.needs ?? []).includes('now'));
  const duck = await openDuckDB();
  const pipeline = await createPipeline(QUERIES, usesClock);
  pipeline.pause();
  try {
    duck.query(DUCKDB_TABLES_SQL);
    const plans = comparisonPlans(duck);
    const workload = new Workload(random(seed));
    for (let step = 0; step < STEPS; ++step) {
      const clockMs = CLOCK_START + step * CLOCK_STEP_MS;
      const changes = workload.changes(step, clockMs);
      applyToDuckDB(duck, changes);
      applyToFreshet(pipeline, changes);
      stepAt(pipeline, clockMs, usesClock);
      const failures = plans.map((plan) => compareView(pipeline, duck, plan, clockMs)).filter(Boolean);
      if (failures.length) {
        assert.fail(
          `step ${step} (clock ${timestampText(clockMs)}), seed ${seed} (replay: FRESHET_SEED=${seed}): ` +
            `${failures.length} of ${plans.length} views differ from DuckDB\n\n${failures.join('\n')}`,
        );
      }
    }
  } finally {
    pipeline.close();
    duck.close();
  }
});
