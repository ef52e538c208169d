// The dashboard's oracle: each view's query (dashboard20_program.mjs) run
// from scratch by duckdb-wasm over the given rows of the two tables.

import { openDuckDB } from './duckdb.mjs';
import { VIEWS } from './dashboard20_program.mjs';

/** @returns {Promise<{ [view: string]: object[] }>} every view's rows over these tables */
export async function oracleViews(customers, orders) {
  const { db, connection, arrow } = await openDuckDB();
  try {
    connection.query('CREATE TABLE customers (id BIGINT PRIMARY KEY, region VARCHAR)');
    connection.query('CREATE TABLE orders (id BIGINT PRIMARY KEY, customer BIGINT, amount DOUBLE)');
    connection.insertArrowTable(
      new arrow.Table({
        id: arrow.makeVector(BigInt64Array.from(customers, (c) => BigInt(c.id))),
        region: arrow.vectorFromArray(customers.map((c) => c.region), new arrow.Utf8()),
      }),
      { name: 'customers', create: false },
    );
    connection.insertArrowTable(
      new arrow.Table({
        id: arrow.makeVector(BigInt64Array.from(orders, (o) => BigInt(o.id))),
        customer: arrow.makeVector(BigInt64Array.from(orders, (o) => BigInt(o.customer))),
        amount: arrow.makeVector(Float64Array.from(orders, (o) => o.amount)),
      }),
      { name: 'orders', create: false },
    );
    const views = {};
    for (const view of VIEWS) {
      const table = connection.query(view.query);
      const columns = table.schema.fields.map((f) => f.name);
      views[view.name] = table.toArray().map((row) => Object.fromEntries(columns.map((c) => [c, typeof row[c] === 'bigint' ? Number(row[c]) : row[c]])));
    }
    return views;
  } finally {
    connection.close();
    db.reset?.();
  }
}

/** The orders after the first `n` changes of the workload. */
export function ordersAfter({ orders, changes }, n) {
  const rows = new Map(orders.map((o) => [o.id, o]));
  for (const change of changes.slice(0, n)) rows.set(change.order.id, change.order);
  return [...rows.values()];
}
