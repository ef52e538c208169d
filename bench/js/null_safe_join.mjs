#!/usr/bin/env node
// A join on a NULL-safe key (`ON l.k IS NOT DISTINCT FROM r.k`, where NULL
// matches NULL) against the same join on `=` (NULL matches nothing), in one
// process on the same rows: both are equi-joins indexed by their key, so a
// change costs about the same (target: the NULL-safe join within 1.3x of the
// `=` join per change and at load). N rows on each side, keys in N/2
// values, one in 1,000 NULL (which the NULL-safe join pairs, 200 x 200 of
// them at 200k rows); then single-row inserts on alternating sides,
// each stepped, taking turns between the two pipelines. Each view (a COUNT
// of the pairs) is checked against the pairs counted from the rows in JS.
//
//   FRESHET_MODULE=wasm-bindings/js/node.js node bench/js/null_safe_join.mjs [--rows 200000] [--changes 20000]

import { parseArgs } from 'node:util';
import { loadFreshet } from './freshet_module.mjs';
import { percentiles } from './stats.mjs';

const { values: options } = parseArgs({
  options: { rows: { type: 'string', default: '200000' }, changes: { type: 'string', default: '20000' } },
});
const ROWS = Number(options.rows);
const CHANGES = Number(options.changes);
const { Pipeline } = await loadFreshet();

const keyOf = (i) => (i % 1000 === 0 ? null : i % Math.max(1, ROWS >> 1));
const rows = (from, to) => Array.from({ length: to - from }, (_, j) => ({ id: from + j, k: keyOf(from + j) }));
const changeKey = (i) => keyOf(i * 7);

/** Pairs of an equi-join of the rows' keys (NULL matching NULL when nullSafe). */
function expectedPairs(left, right, nullSafe) {
  const count = (side) => {
    const counts = new Map();
    for (const { k } of side) if (k !== null || nullSafe) counts.set(k, (counts.get(k) ?? 0) + 1);
    return counts;
  };
  const l = count(left), r = count(right);
  let pairs = 0;
  for (const [k, n] of l) pairs += n * (r.get(k) ?? 0);
  return pairs;
}

async function open(condition) {
  const sql = `CREATE TABLE l (id BIGINT NOT NULL PRIMARY KEY, k BIGINT);
CREATE TABLE r (id BIGINT NOT NULL PRIMARY KEY, k BIGINT);
CREATE MATERIALIZED VIEW pairs AS SELECT COUNT(*) AS n FROM l JOIN r ON ${condition};`;
  const p = await Pipeline.create({ sql, maxMemoryBytes: 0 });
  p.pause();
  return p;
}

const kinds = { 'IS NOT DISTINCT FROM': 'l.k IS NOT DISTINCT FROM r.k', '=': 'l.k = r.k' };
// Loads: 3 rounds into fresh pipelines, the order reversed every other round
// (the first load of a process also compiles the engine's code), medians;
// the last round's pipelines take the changes.
const LOAD_ROUNDS = 3;
const loads = { 'IS NOT DISTINCT FROM': [], '=': [] };
let pipelines = {};
for (let round = 0; round < LOAD_ROUNDS; ++round) {
  for (const p of Object.values(pipelines)) await p.close();
  pipelines = {};
  const names = Object.keys(kinds);
  for (const name of round % 2 ? names.reverse() : names) {
    const p = await open(kinds[name]);
    const started = performance.now();
    p.insert('l', rows(0, ROWS));
    p.insert('r', rows(0, ROWS));
    p.step();
    loads[name].push(performance.now() - started);
    pipelines[name] = p;
  }
}
const median = (x) => x.slice().sort((a, b) => a - b)[x.length >> 1];
const loadMs = Object.fromEntries(Object.entries(loads).map(([name, ms]) => [name, median(ms)]));
const nanos = { 'IS NOT DISTINCT FROM': [], '=': [] };
for (let i = 0; i < CHANGES; ++i) {
  const order = i % 2 ? ['=', 'IS NOT DISTINCT FROM'] : ['IS NOT DISTINCT FROM', '='];
  for (const name of order) {
    const begin = process.hrtime.bigint();
    pipelines[name].insert(i % 2 ? 'l' : 'r', [{ id: ROWS + i, k: changeKey(i) }]);
    pipelines[name].step();
    nanos[name].push(Number(process.hrtime.bigint() - begin));
  }
}
const left = rows(0, ROWS), right = rows(0, ROWS);
for (let i = 0; i < CHANGES; ++i) (i % 2 ? left : right).push({ id: ROWS + i, k: changeKey(i) });
const p50 = (nanos) => percentiles(nanos).p50Us;
console.log(`join of ${ROWS.toLocaleString('en')} x ${ROWS.toLocaleString('en')} rows (keys in ${(ROWS >> 1).toLocaleString('en')} values, 1 in 1,000 NULL), ${CHANGES.toLocaleString('en')} single-row inserts, taking turns`);
for (const [name, p] of Object.entries(pipelines)) {
  const [row] = await p.query('SELECT n FROM pairs');
  const want = expectedPairs(left, right, name !== '=');
  if (Number(row.n) !== want) throw new Error(`ON ${kinds[name]}: ${row.n} pairs, expected ${want}`);
  console.log(`  ON ${kinds[name].padEnd(28)} load ${loadMs[name].toFixed(0).padStart(5)} ms (median of ${LOAD_ROUNDS}), p50 ${p50(nanos[name]).toFixed(2)} µs per change, ${Number(row.n).toLocaleString('en')} pairs`);
  await p.close();
}
const ratio = (a, b) => (a / b).toFixed(2);
console.log(`  NULL-safe / =: load ${ratio(loadMs['IS NOT DISTINCT FROM'], loadMs['='])}x, p50 ${ratio(p50(nanos['IS NOT DISTINCT FROM']), p50(nanos['=']))}x   target <= 1.3x`);
