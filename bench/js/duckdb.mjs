// @duckdb/duckdb-wasm 1.32.0 in Node (the synchronous "blocking" bundle, so
// no worker hop is timed), used as people use it for a live dashboard today:
// write the change, then re-run the GROUP BY query and read its rows.

import { createRequire } from 'node:module';
import * as duckdb from '@duckdb/duckdb-wasm/dist/duckdb-node-blocking';

const require = createRequire(import.meta.url);
const entry = require.resolve('@duckdb/duckdb-wasm/dist/duckdb-node-blocking');
const dist = entry.slice(0, entry.lastIndexOf('/') + 1);
// The Arrow that duckdb-wasm itself loads: a table built by another copy of
// apache-arrow would not be recognised by insertArrowTable.
const arrow = createRequire(entry)('apache-arrow');

const SCHEMA = `
  CREATE TABLE customers (id BIGINT PRIMARY KEY, region VARCHAR);
  CREATE TABLE orders (id BIGINT PRIMARY KEY, customer BIGINT, amount DOUBLE);`;
const VIEW_QUERY = `
  SELECT c.region, COUNT(*) AS orders, SUM(o.amount) AS total
  FROM orders o JOIN customers c ON o.customer = c.id
  GROUP BY c.region`;

function rowsToView(table) {
  const view = new Map();
  for (const row of table.toArray()) view.set(row.region, { orders: Number(row.orders), total: row.total });
  return view;
}

/** A fresh in-memory database: its connection, the Arrow it reads, and which bundle runs. */
export async function openDuckDB() {
  const bundles = {
    mvp: { mainModule: `${dist}duckdb-mvp.wasm`, mainWorker: `${dist}duckdb-node-mvp.worker.cjs` },
    eh: { mainModule: `${dist}duckdb-eh.wasm`, mainWorker: `${dist}duckdb-node-eh.worker.cjs` },
  };
  // createDuckDB takes the exceptions ("eh") build where wasm exceptions
  // exist, as in Node 20; the name says which ran.
  const bundle = (await duckdb.getPlatformFeatures()).wasmExceptions ? 'eh' : 'mvp';
  const db = await duckdb.createDuckDB(bundles, new duckdb.VoidLogger(), duckdb.NODE_RUNTIME);
  await db.instantiate();
  return { db, connection: db.connect(), arrow, bundle };
}

export async function create() {
  const { db, connection, bundle } = await openDuckDB();
  connection.query(SCHEMA);
  // The view query goes as text each time, as a dashboard would send it. A
  // statement prepared before the load gave wrong groups after it (every
  // region read 'y', in duckdb-wasm 1.32.0): its plan keeps the statistics of
  // the empty tables. The writes are prepared: their plans do not depend on them.
  const view = { query: () => connection.query(VIEW_QUERY), close() {} };
  const insert = connection.prepare('INSERT INTO orders VALUES (?, ?, ?)');
  const update = connection.prepare('UPDATE orders SET customer = ?, amount = ? WHERE id = ?');

  return {
    name: `duckdb-wasm ${duckdb.PACKAGE_VERSION} ${bundle} (re-query)`,
    // Bulk load through Arrow, duckdb-wasm's fastest path from JS objects,
    // then one run of the query so the load ends with the view in hand.
    load(customers, orders) {
      // Vectors typed as the table's columns (BIGINT, VARCHAR, DOUBLE), so
      // DuckDB has no conversion to make.
      const customerTable = new arrow.Table({
        id: arrow.makeVector(BigInt64Array.from(customers, (c) => BigInt(c.id))),
        region: arrow.vectorFromArray(customers.map((c) => c.region), new arrow.Utf8()),
      });
      connection.insertArrowTable(customerTable, { name: 'customers', create: false });
      const orderTable = new arrow.Table({
        id: arrow.makeVector(BigInt64Array.from(orders, (o) => BigInt(o.id))),
        customer: arrow.makeVector(BigInt64Array.from(orders, (o) => BigInt(o.customer))),
        amount: arrow.makeVector(Float64Array.from(orders, (o) => o.amount)),
      });
      connection.insertArrowTable(orderTable, { name: 'orders', create: false });
      rowsToView(view.query());
    },
    // No delta to be had: the new result is the answer.
    apply(change) {
      const o = change.order;
      if (change.kind === 'insert') insert.query(o.id, o.customer, o.amount);
      else update.query(o.customer, o.amount, o.id);
      return rowsToView(view.query());
    },
    result() {
      return rowsToView(view.query());
    },
    // DuckDB's own accounting of the memory its buffer manager holds.
    memory() {
      const row = connection.query('SELECT SUM(memory_usage_bytes) AS bytes FROM duckdb_memory()').toArray()[0];
      return { duckdbBufferBytes: Number(row.bytes) };
    },
    close() {
      for (const statement of [view, insert, update]) statement.close();
      connection.close();
      db.reset?.();
    },
  };
}
