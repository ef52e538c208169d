// p.query(sql): one SELECT over the current contents of the materialized
// views and tables (WITH ('materialized' = 'true')), compiled by Freshet's
// SQL front end. Answers are checked against DuckDB over the same rows
// (duckdb_oracle.mjs): as sequences for ORDER BY queries (their order keys
// are unique, so the order is one), as multisets otherwise; and against a
// recomputation from p.snapshot. Errors: NOT_MATERIALIZED, SQL_ERROR with
// line and column.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FreshetError, Pipeline } from 'freshet';

import {
  DOUBLE_TOLERANCE, canonicalRows, canonicalValue, columnKind, multisetDifference, openDuckDB, sqlLiteral,
} from './duckdb_oracle.mjs';
import { random, seed as testSeed } from './support.mjs';

const PROGRAM = `
CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT NOT NULL, amount DOUBLE, placed DATE)
  WITH ('materialized' = 'true');
CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR, region VARCHAR) WITH ('materialized' = 'true');
CREATE TABLE clicks (customer BIGINT, page VARCHAR);
CREATE MATERIALIZED VIEW by_customer AS
  SELECT customer, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY customer;
CREATE VIEW click_pages AS SELECT DISTINCT page FROM clicks;
`;

const ORDERS_COLUMNS = [['id', 'BIGINT'], ['customer', 'BIGINT'], ['amount', 'DOUBLE'], ['placed', 'DATE']];
const CUSTOMERS_COLUMNS = [['id', 'BIGINT'], ['name', 'VARCHAR'], ['region', 'VARCHAR']];

// Queries both engines answer alike. `ordered`: compared as sequences.
const QUERIES = [
  { sql: 'SELECT id, amount FROM orders WHERE amount > 50 ORDER BY amount DESC, id', ordered: true },
  { sql: 'SELECT id FROM orders ORDER BY id LIMIT 5', ordered: true },
  { sql: 'SELECT id, customer FROM orders ORDER BY customer DESC, id LIMIT 7 OFFSET 2', ordered: true },
  { sql: 'SELECT name FROM customers ORDER BY id DESC', ordered: true },
  { sql: 'SELECT customer, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY customer' },
  { sql: 'SELECT c.region, COUNT(*) AS n, MAX(o.amount) AS top FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region' },
  { sql: 'SELECT o.id, c.name FROM orders o LEFT JOIN customers c ON o.customer = c.id WHERE o.amount < 30' },
  { sql: 'SELECT region, COUNT(*) AS n FROM customers GROUP BY region HAVING COUNT(*) > 1 ORDER BY region', ordered: true },
  { sql: 'SELECT customer, total FROM by_customer WHERE n >= 2 ORDER BY total DESC, customer', ordered: true },
  { sql: 'SELECT COUNT(*) AS n, AVG(amount) AS mean FROM orders WHERE placed >= DATE \'2024-01-15\'' },
  { sql: 'SELECT DISTINCT customer FROM orders WHERE amount IS NULL' },
  { sql: 'SELECT id FROM orders WHERE customer IN (SELECT id FROM customers WHERE region = \'north\')' },
];

const REGIONS = ['north', 'south', 'east'];

/** Canonical rows in the same order, doubles within DOUBLE_TOLERANCE (sums differ in their last bits). */
function sameSequence(freshet, oracle) {
  const close = (a, b) => (typeof a === 'number' && typeof b === 'number'
    ? Math.abs(a - b) <= DOUBLE_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b)) : a === b);
  return freshet.length === oracle.length && freshet.every((row, i) => row.every((v, c) => close(v, oracle[i][c])));
}

/** Random customers and orders (orders' ids unique; some amounts NULL). */
function randomRows(next) {
  const customers = [];
  for (let id = 1; id <= 8; ++id) {
    // Every region has a customer: a query over one region always has rows to compare.
    const region = id <= REGIONS.length ? REGIONS[id - 1] : REGIONS[Math.floor(next() * REGIONS.length)];
    customers.push({ id, name: `c${id}`, region });
  }
  const orders = [];
  for (let id = 1; id <= 60; ++id) {
    const amount = next() < 0.1 ? null : Math.round(next() * 10000) / 100;
    const day = 1 + Math.floor(next() * 28);
    orders.push({ id, customer: 1 + Math.floor(next() * 10), amount, placed: `2024-01-${String(day).padStart(2, '0')}` });
  }
  return { customers, orders };
}

function insertInto(duck, table, columns, rows) {
  const values = rows.map((row) => `(${columns.map(([name, type]) => sqlLiteral(row[name], type)).join(', ')})`);
  duck.query(`INSERT INTO ${table} VALUES ${values.join(', ')}`);
}

async function loadedPipeline(rows) {
  const p = await Pipeline.create({ sql: PROGRAM });
  p.pause();
  p.insert('customers', rows.customers);
  p.insert('orders', rows.orders);
  p.step();
  return p;
}

test('p.query answers as DuckDB does over the same rows', async () => {
  const seed = testSeed('p.query vs DuckDB');
  const rows = randomRows(random(seed));
  const p = await loadedPipeline(rows);
  const duck = await openDuckDB();
  try {
    duck.query('CREATE TABLE orders (id BIGINT, customer BIGINT, amount DOUBLE, placed DATE)');
    duck.query('CREATE TABLE customers (id BIGINT, name VARCHAR, region VARCHAR)');
    duck.query('CREATE VIEW by_customer AS SELECT customer, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY customer');
    insertInto(duck, 'customers', CUSTOMERS_COLUMNS, rows.customers);
    insertInto(duck, 'orders', ORDERS_COLUMNS, rows.orders);
    for (const { sql, ordered } of QUERIES) {
      const columns = duck.columns(sql).map((c) => ({ name: c.name, kind: columnKind(c.type) }));
      const freshet = await p.query(sql);
      const oracle = duck.query(sql);
      assert.ok(oracle.length > 0 || sql.includes('IS NULL'), `seed ${seed}: DuckDB found no rows for ${sql}`);
      const canonical = (list) => list.map((row) => columns.map(({ name, kind }) => canonicalValue(row[name], kind)));
      if (ordered) {
        assert.ok(sameSequence(canonical(freshet), canonical(oracle)),
          `seed ${seed}: ${sql}\nFreshet: ${JSON.stringify(canonical(freshet))}\nDuckDB:  ${JSON.stringify(canonical(oracle))}`);
      } else {
        const difference = multisetDifference(canonicalRows(freshet, columns), canonicalRows(oracle, columns));
        assert.equal(difference, null, `seed ${seed}: ${sql}: ${JSON.stringify(difference)}`);
      }
    }
  } finally {
    duck.close();
    p.close();
  }
});

test('p.query reads the contents as of the last step, in ORDER BY order, without changing the pipeline', async () => {
  const rows = randomRows(random(7));
  const p = await loadedPipeline(rows);
  // A recomputation from the snapshot of the materialized table.
  const expected = p.snapshot('orders').filter((o) => o.amount !== null && o.amount > 20)
    .sort((a, b) => b.amount - a.amount || a.id - b.id).map((o) => ({ id: o.id }));
  assert.deepEqual(await p.query('SELECT id FROM orders WHERE amount > 20 ORDER BY amount DESC, id'), expected);
  const step = p.stats().step;
  p.delete('orders', [{ id: 1 }]);
  assert.deepEqual(await p.query('SELECT COUNT(*) AS n FROM orders'), [{ n: 60 }]);  // not stepped yet
  p.step();
  assert.deepEqual(await p.query('SELECT COUNT(*) AS n FROM orders'), [{ n: 59 }]);
  assert.equal(p.stats().step, step + 1);  // queries run no step of the pipeline
  // Duplicates come as many times as they occur; values in the package's JS shapes.
  assert.deepEqual(await p.query("SELECT placed, 'x' AS tag FROM orders WHERE id IN (2, 3) AND FALSE"), []);
  const big = await p.query('SELECT CAST(9007199254740993 AS BIGINT) AS big, placed FROM orders WHERE id = 2');
  assert.equal(big[0].big, 9007199254740993n);
  assert.match(big[0].placed, /^2024-01-\d\d$/);
  p.close();
});

test('a materialized table snapshots and egresses like a materialized view', async () => {
  const p = await Pipeline.create({ sql: PROGRAM });
  p.insert('customers', [{ id: 1, name: 'ann', region: 'north' }]);
  p.step();
  assert.deepEqual(p.snapshot('customers'), [{ id: 1, name: 'ann', region: 'north' }]);
  const changes = p.egress('customers', { sendSnapshot: true });
  const first = await changes[Symbol.asyncIterator]().next();
  assert.equal(first.value.snapshot, true);
  assert.deepEqual(first.value.inserts, [{ id: 1, name: 'ann', region: 'north' }]);
  changes.close();
  assert.throws(() => p.snapshot('clicks'), (e) => e instanceof FreshetError && e.code === 'NOT_MATERIALIZED' &&
    e.message.includes("WITH ('materialized' = 'true')"));
  p.close();
});

test('p.query errors: not materialized, unknown names, SQL errors with line and column', async () => {
  const p = await Pipeline.create({ sql: PROGRAM });
  const rejects = (sql, code, message) =>
    assert.rejects(p.query(sql), (e) => e instanceof FreshetError && e.code === code && e.message.includes(message));
  await rejects('SELECT * FROM click_pages', 'NOT_MATERIALIZED',
    "line 1, column 15: view 'click_pages' is not materialized");
  await rejects('SELECT o.id\nFROM orders o JOIN clicks c ON o.customer = c.customer', 'NOT_MATERIALIZED',
    "line 2, column 20: table 'clicks' is not materialized");
  await rejects('SELECT * FROM nowhere', 'SQL_ERROR', "line 1, column 15: unknown table or view 'nowhere'");
  await rejects('SELECT id,\n  nope FROM orders', 'SQL_ERROR', "line 2, column 3: unknown column 'nope'");
  await rejects('SELECT FROM orders', 'SQL_ERROR', 'line 1, column 8');
  await rejects('CREATE TABLE x (a INT)', 'SQL_ERROR', 'line 1, column 1');
  await assert.rejects(p.query(42), (e) => e instanceof FreshetError);
  p.close();
});
