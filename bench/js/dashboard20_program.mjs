// The 20-view dashboard of issue 21, over the orders workload's two tables
// (workload.mjs: 1,000 customers in 10 regions, orders of 0.00–999.99), in
// Feldera's SQL dialect. One source for the benchmark (dashboard20.mjs), its
// oracle (the same queries run by DuckDB), tests and the web demo.
//
//   import { PROGRAM_SQL, VIEWS, TABLES_SQL, programOf } from './dashboard20_program.mjs';
//
// Each view: `name`, `query` (the SELECT, also valid DuckDB SQL) and `key`
// (columns that identify a row of the view, for comparing contents).
// Top-k views break ties by id, so their contents are determined.

export const TABLES_SQL = `CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, region VARCHAR);
CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT, amount DOUBLE);`;

const SIZE = `CASE WHEN o.amount < 10 THEN 'small' WHEN o.amount < 100 THEN 'medium'
    WHEN o.amount < 500 THEN 'large' ELSE 'huge' END`;

/** @type {{ name: string, query: string, key: string[] }[]} */
export const VIEWS = [
  // headline numbers
  { name: 'totals', key: [], query: `SELECT COUNT(*) AS orders, SUM(o.amount) AS revenue, AVG(o.amount) AS avg_amount FROM orders o` },
  // the join-aggregate
  { name: 'revenue_by_region', key: ['region'], query: `SELECT c.region, COUNT(*) AS orders, SUM(o.amount) AS revenue
    FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region` },
  { name: 'amount_stats_by_region', key: ['region'], query: `SELECT c.region, AVG(o.amount) AS avg_amount, MIN(o.amount) AS smallest, MAX(o.amount) AS largest
    FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region` },
  { name: 'big_orders_by_region', key: ['region'], query: `SELECT c.region, COUNT(*) AS orders, SUM(o.amount) AS revenue
    FROM orders o JOIN customers c ON o.customer = c.id WHERE o.amount > 900 GROUP BY c.region` },
  { name: 'orders_by_size', key: ['size'], query: `SELECT ${SIZE} AS size, COUNT(*) AS orders, SUM(o.amount) AS revenue
    FROM orders o GROUP BY ${SIZE}` },
  { name: 'region_size_grid', key: ['region', 'size'], query: `SELECT c.region, ${SIZE} AS size, COUNT(*) AS orders
    FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region, ${SIZE}` },
  // per customer
  { name: 'revenue_by_customer', key: ['customer'], query: `SELECT o.customer, COUNT(*) AS orders, SUM(o.amount) AS revenue
    FROM orders o GROUP BY o.customer` },
  { name: 'customer_summary', key: ['id'], query: `SELECT c.id, c.region, COUNT(*) AS orders, SUM(o.amount) AS revenue
    FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.id, c.region` },
  { name: 'largest_order_by_customer', key: ['customer'], query: `SELECT o.customer, MAX(o.amount) AS largest
    FROM orders o GROUP BY o.customer` },
  { name: 'vip_customers', key: ['customer'], query: `SELECT o.customer, SUM(o.amount) AS revenue
    FROM orders o GROUP BY o.customer HAVING SUM(o.amount) > 110000` },
  { name: 'customers_by_order_count', key: ['orders'], query: `SELECT n.orders, COUNT(*) AS customers
    FROM (SELECT o.customer, COUNT(*) AS orders FROM orders o GROUP BY o.customer) AS n GROUP BY n.orders` },
  { name: 'big_buyers_by_region', key: ['region'], query: `SELECT c.region, COUNT(DISTINCT o.customer) AS customers
    FROM orders o JOIN customers c ON o.customer = c.id WHERE o.amount > 990 GROUP BY c.region` },
  // top-k
  { name: 'top10_orders', key: ['id'], query: `SELECT o.id, o.customer, o.amount FROM orders o ORDER BY o.amount DESC, o.id LIMIT 10` },
  { name: 'latest_orders', key: ['id'], query: `SELECT o.id, o.customer, o.amount FROM orders o ORDER BY o.id DESC LIMIT 10` },
  { name: 'top10_customers', key: ['customer'], query: `SELECT o.customer, SUM(o.amount) AS revenue
    FROM orders o GROUP BY o.customer ORDER BY revenue DESC, o.customer LIMIT 10` },
  { name: 'top3_by_region', key: ['id'], query: `SELECT t.id, t.region, t.amount FROM (
      SELECT o.id, c.region, o.amount, ROW_NUMBER() OVER (PARTITION BY c.region ORDER BY o.amount DESC, o.id) AS rn
      FROM orders o JOIN customers c ON o.customer = c.id) AS t
    WHERE t.rn <= 3` },
  // filters
  { name: 'big_orders', key: ['id'], query: `SELECT o.id, o.customer, o.amount FROM orders o WHERE o.amount >= 990` },
  { name: 'region3_big_orders', key: ['id'], query: `SELECT o.id, o.customer, o.amount
    FROM orders o JOIN customers c ON o.customer = c.id WHERE c.region = 'region-3' AND o.amount > 950` },
  // the two DISTINCTs
  { name: 'big_spenders', key: ['customer'], query: `SELECT DISTINCT o.customer FROM orders o WHERE o.amount > 990` },
  { name: 'regions_with_huge_orders', key: ['region'], query: `SELECT DISTINCT c.region
    FROM orders o JOIN customers c ON o.customer = c.id WHERE o.amount > 999.9` },
];

/** The program of one view (the tables and that view alone). */
export function programOf(name) {
  const view = VIEWS.find((v) => v.name === name);
  if (!view) throw new Error(`no view '${name}' in the dashboard`);
  return `${TABLES_SQL}\nCREATE MATERIALIZED VIEW ${view.name} AS ${view.query};\n`;
}

/** The whole dashboard: the tables and the 20 views in one program. */
export const PROGRAM_SQL = `${TABLES_SQL}\n${VIEWS.map((v) => `CREATE MATERIALIZED VIEW ${v.name} AS ${v.query};`).join('\n')}\n`;
