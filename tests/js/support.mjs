// Shared by the JS tests: the orders/customers sample program and small helpers.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The program text lives in fixtures/orders.sql: the checkpoint fixtures were
// written from it, and the native tests read them with the same text.
export const ORDERS_SQL = readFileSync(new URL('./fixtures/orders.sql', import.meta.url), 'utf8');

/**
 * What `program` (an ES module) prints, run in a fresh Node process with
 * `nodeOptions`, from this folder (so that 'freshet' and the fixtures resolve).
 */
export function runModule(program, nodeOptions = []) {
  return execFileSync(process.execPath, [...nodeOptions, '--input-type=module', '-e', program],
                      { cwd: fileURLToPath(new URL('.', import.meta.url)), encoding: 'utf8', maxBuffer: 1 << 28 });
}

/** Resolves after pending timers of this turn ran (the auto-step timer among them). */
export function tick(ms = 0) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until `condition()` holds, checking every few milliseconds. */
export async function until(condition, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await tick(2);
  }
}

/** A multiset of rows, as a sorted list of their JSON texts (BigInts written out). */
export function bag(rows) {
  return rows.map((row) => JSON.stringify(row, (k, v) => (typeof v === 'bigint' ? `${v}n` : v))).sort();
}

/** A deterministic random generator (mulberry32), so failures replay. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of a randomised test: FRESHET_SEED, or a fresh one (printed). */
export function seed(name) {
  const value = process.env.FRESHET_SEED ? Number(process.env.FRESHET_SEED) : Math.floor(Math.random() * 2 ** 31);
  console.log(`[ seed ] ${name}: FRESHET_SEED=${value}`);
  return value;
}

/** Whether `got` equals `want`, where "…" in `want` stands for any value (the docs' example answers). */
export function matches(got, want) {
  if (want === '…') return true;
  if (Array.isArray(want)) return Array.isArray(got) && got.length === want.length && want.every((w, i) => matches(got[i], w));
  if (want && typeof want === 'object') {
    if (!got || typeof got !== 'object') return false;
    const keys = Object.keys(want).sort();
    return JSON.stringify(keys) === JSON.stringify(Object.keys(got).sort()) && keys.every((k) => matches(got[k], want[k]));
  }
  return got === want;
}

/** How many egress streams `p` has open (a live view holds one). */
export const openStreams = (p) => Object.keys(p.stats().egress).length;

/** The rows a UI test's component shows: one <li> per row, its JSON text. */
export const shown = (into) => [...into.querySelectorAll('li')].map((li) => JSON.parse(li.textContent));

/** A program for the durable log's tests: a table without a key (a row ingested twice shows twice) and its count. */
export const DURABLE_SQL = `
CREATE TABLE t (id BIGINT NOT NULL, v BIGINT);
CREATE MATERIALIZED VIEW all_rows AS SELECT * FROM t;
CREATE MATERIALIZED VIEW totals AS SELECT v, COUNT(*) AS n FROM t GROUP BY v;
`;
