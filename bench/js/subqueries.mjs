// The correlated subqueries of issue 17, measured in wasm against baselines
// taken in the same process (ratios; this machine's wall clock moves by 2x
// between spells):
//   exists  customers with an order above 999 (`WHERE EXISTS (SELECT 1 FROM
//           orders o WHERE o.customer = c.id AND o.amount > 999)`), per change,
//           against the same view written by hand as a join with the DISTINCT
//           customers of those orders (target: <= 1.3x), and against
//           duckdb-wasm re-running the query after each change (>= 500x)
//   not_exists  customers without an order above 999 (`WHERE NOT EXISTS
//           (...)`, an anti-join), against the same view written by hand as a
//           LEFT JOIN with the DISTINCT customers of those orders keeping the
//           unmatched rows (<= 1.3x), with its operators' state, and
//           against duckdb-wasm (>= 500x)
//   count   each customer's number of orders as a correlated scalar subquery
//           (`(SELECT COUNT(*) FROM orders o WHERE o.customer = c.id)`),
//           against the hand-written LEFT JOIN of a GROUP BY with COALESCE(n, 0)
//           (<= 1.3x) and against duckdb-wasm (>= 500x)
//
//   node bench/js/subqueries.mjs [--only exists,not_exists,count] [--orders 200000]
//        [--changes 1000] [--duckdb-queries 100]
//
// freshet is found as bench/js/run.mjs finds it (FRESHET_MODULE or the
// package). Each change is timed from the write to the end of the step that
// applies it, with the step's chunks handed to a sink (a callbackSink that
// counts rows): the view's delta is in JS hands when the timer stops.

import { parseArgs } from 'node:util';
import { loadFreshet } from './freshet_module.mjs';
import { makeWorkload, LOAD_CHUNK } from './workload.mjs';
import { percentiles } from './stats.mjs';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: 'exists,not_exists,count' },
    orders: { type: 'string', default: '200000' },
    changes: { type: 'string', default: '1000' },
    'duckdb-queries': { type: 'string', default: '100' },
  },
});
const only = new Set(args.only.split(','));
const freshet = await loadFreshet();
const workload = makeWorkload({ orders: Number(args.orders), changes: Number(args.changes) });

const TABLES = `
  CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, region VARCHAR);
  CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT, amount DOUBLE);`;

const MEASURES = {
  exists: {
    title: 'customers with an order above 999: correlated EXISTS',
    subquery: `SELECT c.id, c.region FROM customers c
      WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer = c.id AND o.amount > 999)`,
    byHand: `SELECT c.id, c.region FROM customers c
      JOIN (SELECT DISTINCT customer FROM orders WHERE amount > 999) AS b ON b.customer = c.id`,
    key: (r) => `${Number(r.id)}|${r.region}`,
  },
  not_exists: {
    title: 'customers without an order above 999: correlated NOT EXISTS',
    subquery: `SELECT c.id, c.region FROM customers c
      WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer = c.id AND o.amount > 999)`,
    byHand: `SELECT c.id, c.region FROM customers c
      LEFT JOIN (SELECT DISTINCT customer FROM orders WHERE amount > 999) AS b ON b.customer = c.id
      WHERE b.customer IS NULL`,
    key: (r) => `${Number(r.id)}|${r.region}`,
  },
  count: {
    title: 'orders per customer: correlated scalar COUNT',
    subquery: `SELECT c.id, c.region, (SELECT COUNT(*) FROM orders o WHERE o.customer = c.id) AS n FROM customers c`,
    byHand: `SELECT c.id, c.region, COALESCE(g.n, 0) AS n FROM customers c
      LEFT JOIN (SELECT customer, COUNT(*) AS n FROM orders GROUP BY customer) AS g ON g.customer = c.id`,
    key: (r) => `${Number(r.id)}|${r.region}|${Number(r.n)}`,
  },
};

const us = (x) => `${x.toFixed(2)} µs`;
function line(label, figures) {
  console.log(`${label.padEnd(52)} ${figures}`);
}

/** Loads the workload into a paused pipeline holding `query` as view v, then times each change. */
async function runFreshet(query) {
  const p = await freshet.Pipeline.create({ sql: `${TABLES}\nCREATE MATERIALIZED VIEW v AS ${query};` });
  p.pause();
  let rows = 0;
  p.addOutput('count', {
    view: 'v',
    sink: freshet.callbackSink((chunk) => {
      rows += (chunk.inserts?.length ?? 0) + (chunk.deletes?.length ?? 0) + (chunk.upserts?.length ?? 0);
    }),
  });
  p.insert('customers', workload.customers);
  for (let start = 0; start < workload.orders.length; start += LOAD_CHUNK) {
    p.insert('orders', workload.orders.slice(start, start + LOAD_CHUNK));
    p.step();
  }
  const nanos = [];
  for (const change of workload.changes) {
    const begin = process.hrtime.bigint();
    if (change.kind === 'insert') p.insert('orders', [change.order]);
    else p.ingest('orders', [{ delete: change.old }, { insert: change.order }]);
    p.step();
    nanos.push(Number(process.hrtime.bigint() - begin));
  }
  await new Promise((resolve) => setImmediate(resolve)); // the sink's last deliveries
  const result = { ...percentiles(nanos), rows: p.snapshot('v'), deltaRows: rows, stateBytes: p.inspect().totals.bytes };
  p.close();
  return result;
}

async function runDuckdb(query, queries) {
  const { openDuckDB } = await import('./duckdb.mjs');
  const { connection, arrow } = await openDuckDB();
  connection.query('CREATE TABLE customers (id BIGINT PRIMARY KEY, region VARCHAR)');
  connection.query('CREATE TABLE orders (id BIGINT PRIMARY KEY, customer BIGINT, amount DOUBLE)');
  connection.insertArrowTable(
    new arrow.Table({
      id: arrow.makeVector(BigInt64Array.from(workload.customers, (c) => BigInt(c.id))),
      region: arrow.vectorFromArray(workload.customers.map((c) => c.region), new arrow.Utf8()),
    }),
    { name: 'customers', create: false },
  );
  connection.insertArrowTable(
    new arrow.Table({
      id: arrow.makeVector(BigInt64Array.from(workload.orders, (o) => BigInt(o.id))),
      customer: arrow.makeVector(BigInt64Array.from(workload.orders, (o) => BigInt(o.customer))),
      amount: arrow.makeVector(Float64Array.from(workload.orders, (o) => o.amount)),
    }),
    { name: 'orders', create: false },
  );
  const insert = connection.prepare('INSERT INTO orders VALUES (?, ?, ?)');
  const update = connection.prepare('UPDATE orders SET customer = ?, amount = ? WHERE id = ?');
  const nanos = [];
  workload.changes.forEach((change, i) => {
    const begin = process.hrtime.bigint();
    const o = change.order;
    if (change.kind === 'insert') insert.query(o.id, o.customer, o.amount);
    else update.query(o.customer, o.amount, o.id);
    if (i < queries) {
      connection.query(query).toArray();
      nanos.push(Number(process.hrtime.bigint() - begin));
    }
  });
  const rows = connection.query(query).toArray();
  connection.close();
  return { ...percentiles(nanos), queries: nanos.length, rows };
}

let failures = 0;
function checkSame(a, b, key, what) {
  const left = a.map(key).sort();
  const right = b.map(key).sort();
  const same = left.length === right.length && left.every((k, i) => k === right[i]);
  if (!same) {
    failures += 1;
    console.error(`CHECK FAILED: ${what}: ${left.length} vs ${right.length} rows, first difference ${left.find((k, i) => k !== right[i])}`);
  }
}

for (const [name, measure] of Object.entries(MEASURES)) {
  if (!only.has(name)) continue;
  const byHand = await runFreshet(measure.byHand);
  const subquery = await runFreshet(measure.subquery);
  const duck = await runDuckdb(measure.subquery, Number(args['duckdb-queries']));
  checkSame(subquery.rows, byHand.rows, measure.key, `${name}: subquery vs hand-written view`);
  checkSame(subquery.rows, duck.rows, measure.key, `${name}: subquery vs duckdb`);
  console.log(`\n== ${measure.title}, ${workload.orders.length} orders, ${workload.changes.length} changes (wasm)`);
  const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
  line('hand-written join (baseline)',
       `p50 ${us(byHand.p50Us)}  p99 ${us(byHand.p99Us)}  delta rows ${byHand.deltaRows}  operators' state ${kib(byHand.stateBytes)}`);
  line('subquery',
       `p50 ${us(subquery.p50Us)}  p99 ${us(subquery.p99Us)}  delta rows ${subquery.deltaRows}  operators' state ${kib(subquery.stateBytes)}`);
  line(`duckdb-wasm re-query (${duck.queries} changes)`, `p50 ${us(duck.p50Us)}  p99 ${us(duck.p99Us)}`);
  line('subquery / hand-written p50 (target <= 1.3)', (subquery.p50Us / byHand.p50Us).toFixed(2));
  line('duckdb / subquery p50 (target >= 500)', (duck.p50Us / subquery.p50Us).toFixed(0));
}
if (failures) process.exit(1);
