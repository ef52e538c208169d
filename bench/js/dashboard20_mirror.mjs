// A view kept in JS from its deltas (rows with multiplicities), and the
// comparison of a view's rows with the oracle's, shared by the dashboard's
// engines (dashboard20_*.mjs) and its runner.

import { RELATIVE_TOLERANCE } from './workload.mjs';

/**
 * Rows by their JSON text, with counts: deletes then inserts. A delta is
 * kept as it arrives and folded in when the rows are read: a change is timed
 * until its deltas are in JS hands (as run.mjs times one), and what an
 * application then does with them (here a JSON.stringify per row, ~40 µs of
 * a dashboard change) is the same work whichever engine delivered them, so
 * timing it too would only blur the engines' ratios.
 */
export class RowMirror {
  constructor() {
    /** @type {Map<string, { row: object, count: number }>} */
    this.entries = new Map();
    /** Deltas not folded in yet: row, weight, row, weight... */
    this.pending = [];
  }

  apply(deletes, inserts) {
    for (const row of deletes) this.pending.push(row, -1);
    for (const row of inserts) this.pending.push(row, 1);
  }

  add(row, weight) {
    this.pending.push(row, weight);
  }

  fold() {
    const pending = this.pending;
    this.pending = [];
    for (let i = 0; i < pending.length; i += 2) this.foldOne(pending[i], pending[i + 1]);
  }

  foldOne(row, weight) {
    const text = JSON.stringify(row);
    const entry = this.entries.get(text);
    if (!entry) this.entries.set(text, { row, count: weight });
    else if ((entry.count += weight) === 0) this.entries.delete(text);
  }

  /** Every row, a row of count n n times (a negative count is a bug the check will show). */
  rows() {
    this.fold();
    const rows = [];
    for (const { row, count } of this.entries.values()) for (let i = 0; i < Math.abs(count); ++i) rows.push(count > 0 ? row : { ...row, NEGATIVE_COUNT: true });
    return rows;
  }
}

const plain = (value) => (typeof value === 'bigint' ? Number(value) : value);

function sameValue(a, b) {
  a = plain(a);
  b = plain(b);
  if (typeof a === 'number' && typeof b === 'number') {
    return Math.abs(a - b) <= RELATIVE_TOLERANCE * Math.max(Math.abs(a), Math.abs(b), 1e-300);
  }
  return a === b || (a == null && b == null);
}

/**
 * Compares a view's rows with the oracle's: the same keys (`view.key`'s
 * columns), once each, and equal values in the oracle's columns (numbers
 * within RELATIVE_TOLERANCE: engines sum in different orders).
 * @returns {string[]} the differences, at most 5
 */
export function compareView(view, expected, actual) {
  const keyOf = (row) => JSON.stringify(view.key.map((k) => plain(row[k])));
  const problems = [];
  const byKey = new Map();
  for (const row of actual) {
    const key = keyOf(row);
    if (byKey.has(key) || row.NEGATIVE_COUNT) problems.push(`${view.name}: row ${key} twice or negative`);
    byKey.set(key, row);
  }
  for (const want of expected) {
    const key = keyOf(want);
    const got = byKey.get(key);
    byKey.delete(key);
    if (!got) problems.push(`${view.name}: missing ${JSON.stringify(want, (_, v) => plain(v))}`);
    else {
      for (const column of Object.keys(want)) {
        if (!sameValue(want[column], got[column])) problems.push(`${view.name}: ${key}.${column} = ${got[column]}, expected ${plain(want[column])}`);
      }
    }
  }
  for (const [key] of byKey) problems.push(`${view.name}: unexpected row ${key}`);
  return problems.slice(0, 5);
}
