// The orders workload of bench/README.md, in JS: the rows to load, the
// changes to time, and the checker that every engine's final view must pass.
// It draws the same numbers in the same order as bench/orders_workload.h
// (std::mt19937_64 seeded with 42), so the data equals the C++ benchmark's.

import { Mt19937_64 } from './mt19937_64.mjs';

export const CUSTOMERS = 1000;
export const REGIONS = 10;
export const LOAD_CHUNK = 10000; // engines that step bring their view up to date after each chunk
export const SEED = 42n;
export const RELATIVE_TOLERANCE = 1e-6;
// The user-shaped runs' --warm-app workload (user_shaped.mjs, ../web/):
// the application run once on it first has V8 compile the application's
// functions, which it did between changes ~1,000 and ~2,600 of a run.
export const WARM_APP_WORKLOAD = { orders: 20000, changes: 5000 };

/** The workload's program for engines that take SQL (freshet's Pipeline.create). */
export const SQL = `
CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, region VARCHAR);
CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT, amount DOUBLE);
CREATE MATERIALIZED VIEW by_region AS
  SELECT c.region, COUNT(*) AS orders, SUM(o.amount) AS total
  FROM orders o JOIN customers c ON o.customer = c.id
  GROUP BY c.region;
`;

/** @typedef {{ id: number, customer: number, amount: number }} Order */
/** @typedef {{ id: number, region: string }} Customer */
/**
 * An insert of a new order, or an update of an existing one (`old` is its
 * row before). `changesView` is false for the rare update that leaves the
 * view as it was (same region, same amount): no engine has a delta for it.
 * @typedef {{ kind: 'insert', order: Order, changesView: boolean }
 *         | { kind: 'update', old: Order, order: Order, changesView: boolean }} Change
 */
/** region -> aggregates; what every engine's result() returns. @typedef {Map<string, { orders: number, total: number }>} ViewResult */

export function regionOf(customer) {
  return `region-${customer % REGIONS}`;
}

/**
 * @param {{ orders?: number, changes?: number }} sizes
 * @returns {{ customers: Customer[], orders: Order[], changes: Change[] }}
 */
export function makeWorkload({ orders: orderCount = 200000, changes: changeCount = 1000 } = {}) {
  const random = new Mt19937_64(SEED);
  const amount = () => random.below(100000) / 100;
  const customers = Array.from({ length: CUSTOMERS }, (_, id) => ({ id, region: regionOf(id) }));

  const orders = [];
  for (let id = 0; id < orderCount; ++id) orders.push({ id, customer: random.below(CUSTOMERS), amount: amount() });

  // Draw inserts and updates pairwise, as the C++ does; later updates of the
  // same order start from its updated row, so track the current rows apart.
  const current = orders.slice();
  const changes = [];
  for (let i = 0; changes.length < changeCount; ++i) {
    const inserted = { id: orderCount + i, customer: random.below(CUSTOMERS), amount: amount() };
    changes.push({ kind: 'insert', order: inserted, changesView: true });
    const old = current[random.below(orderCount)];
    const updated = { id: old.id, customer: random.below(CUSTOMERS), amount: amount() };
    current[old.id] = updated;
    const changesView = regionOf(old.customer) !== regionOf(updated.customer) || old.amount !== updated.amount;
    if (changes.length < changeCount) changes.push({ kind: 'update', old, order: updated, changesView });
  }
  return { customers, orders, changes };
}

/** The view recomputed from scratch after every change: the oracle. @returns {ViewResult} */
export function referenceResult({ orders, changes }) {
  const rows = new Map(orders.map((o) => [o.id, o]));
  for (const change of changes) rows.set(change.order.id, change.order);
  const view = new Map();
  for (const o of rows.values()) {
    const region = regionOf(o.customer);
    const entry = view.get(region) ?? { orders: 0, total: 0 };
    entry.orders += 1;
    entry.total += o.amount;
    view.set(region, entry);
  }
  return view;
}

function closeEnough(a, b) {
  return Math.abs(a - b) <= RELATIVE_TOLERANCE * Math.max(Math.abs(a), Math.abs(b), 1e-300);
}

/**
 * Compares a view with the oracle: same regions, equal counts, totals within
 * RELATIVE_TOLERANCE (engines sum in different orders).
 * @param {ViewResult} expected @param {ViewResult} actual
 * @returns {string[]} one line per difference; empty when they agree
 */
export function compareResults(expected, actual) {
  const problems = [];
  for (const [region, want] of expected) {
    const got = actual.get(region);
    if (!got) problems.push(`${region}: missing`);
    else if (got.orders !== want.orders) problems.push(`${region}: orders ${got.orders}, expected ${want.orders}`);
    else if (!closeEnough(got.total, want.total)) problems.push(`${region}: total ${got.total}, expected ${want.total}`);
  }
  for (const region of actual.keys()) if (!expected.has(region)) problems.push(`${region}: unexpected`);
  return problems;
}
