// Egress chunks sent as row chunks (row_chunk.js, ../../wasm-bindings/cpp/js_row_chunk.h)
// read back exactly as the JSON path gives the same rows: every chunk of an
// egress with its snapshot, applied in order, equals p.snapshot() (JSON text)
// after each random step, value for value (NULLs, -0, NaN, ±Infinity,
// BIGINTs at ±(2^53 − 1) and beyond, non-ASCII and long strings, a row of
// weight > 1); views of types the row chunk does not carry go as JSON.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Pipeline } from 'freshet';

import { random, seed } from './support.mjs';

const SQL = `
CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, flag BOOLEAN, tiny TINYINT, small SMALLINT, i INT, big BIGINT,
                x DOUBLE, name VARCHAR, note VARCHAR, day DATE);
CREATE MATERIALIZED VIEW plain AS SELECT id, flag, tiny, small, i, big, x, name, note FROM t;
CREATE MATERIALIZED VIEW names AS SELECT name, flag FROM t;
CREATE MATERIALIZED VIEW days AS SELECT id, day, x FROM t;`;

const BIGINTS = [0, 1, -1, 2 ** 53 - 1, -(2 ** 53 - 1), 9007199254740993n, -9007199254740993n, null];
const DOUBLES = [0, -0, 1.5, -2.25, 0.1 + 0.2, 68773.99999999999, 1e300, -1e-300, NaN, Infinity, -Infinity, 2 ** 60, null];
const STRINGS = ['', 'a', 'region-5', 'naïve café', '漢字', '😀 emoji', 'quote " and \\ and \n', 'x'.repeat(40), `é${'y'.repeat(50)}`, null];

// Short ASCII strings come from a cache of recent ones (row_chunk.js): many
// distinct ones of 0–33 characters (32 is the longest cached), from a small
// alphabet, so that they share cache slots and replace each other.
function randomAscii(next) {
  const length = Math.floor(next() * 34);
  let text = '';
  for (let i = 0; i < length; ++i) text += 'ab~ 0'[Math.floor(next() * 5)];
  return text;
}

function randomRow(next, id) {
  const pick = (values) => values[Math.floor(next() * values.length)];
  return {
    id, flag: pick([true, false, null]), tiny: pick([0, -128, 127, null]), small: pick([0, -32768, 32767, null]),
    i: pick([0, -2147483648, 2147483647, null]), big: pick(BIGINTS), x: pick(DOUBLES), name: pick(STRINGS),
    note: next() < 0.5 ? pick(STRINGS) : randomAscii(next), day: pick(['2024-02-29', null]),
  };
}

/** JSON text for the changes, with what JSON.stringify cannot spell: BigInts, -0, NaN and the infinities. */
function asJson(changes) {
  const raw = (text) => `\u0000${text}`;
  const text = JSON.stringify(changes, (key, value) => {
    if (typeof value === 'bigint') return raw(String(value));
    if (typeof value !== 'number') return value;
    if (Object.is(value, -0)) return raw('-0.0');
    return Number.isFinite(value) ? value : String(value);  // the parser reads "NaN", "Infinity", "-Infinity"
  });
  return text.replace(/"\\u0000([^"]*)"/g, '$1');
}

const sortRows = (rows) => rows.map((row) => [JSON.stringify(row, (k, v) => (typeof v === 'bigint' ? `${v}n` : Object.is(v, -0) ? '-0' : v)), row])
  .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, row]) => row);

/** Applies a chunk's rows to a list (the rows are objects: deletes by deep equality). */
function apply(rows, chunk) {
  rows.push(...chunk.inserts);
  for (const gone of chunk.deletes) {
    const at = rows.findIndex((row) => { try { assert.deepStrictEqual(row, gone); return true; } catch { return false; } });
    assert.ok(at >= 0, `a delete of an absent row ${JSON.stringify(gone, (k, v) => (typeof v === 'bigint' ? `${v}` : v))}`);
    rows.splice(at, 1);
  }
}

/** Applies every chunk queued now; a next() still waiting (for a later step) is kept for the next call. */
const waiting = new Map();
async function drain(iterator, into) {
  for (;;) {
    if (!waiting.has(iterator)) waiting.set(iterator, iterator.next());
    const result = await Promise.race([waiting.get(iterator), new Promise((resolve) => setTimeout(() => resolve(null), 0))]);
    if (!result) return;
    waiting.delete(iterator);
    apply(into, result.value);
  }
}

test('row chunks read back as the JSON path gives the same rows (egress vs snapshot)', async () => {
  const next = random(seed('row chunks'));
  const p = await Pipeline.create({ sql: SQL });
  p.pause();
  const views = ['plain', 'names', 'days'];
  const streams = Object.fromEntries(views.map((view) => [view, p.egress(view, { sendSnapshot: true })[Symbol.asyncIterator]()]));
  const mirrors = Object.fromEntries(views.map((view) => [view, []]));
  const live = new Map();
  const seen = { bigint: false, nan: false };
  for (let step = 0; step < 25; ++step) {
    const changes = [];
    const touched = new Set();  // a key once per ingest
    if (step === 0) {
      // Every edge double and BIGINT at least once (random picks alone left
      // out NaN in ~1% of runs), then random changes over them.
      for (let id = 0; id < DOUBLES.length; ++id) {
        const row = { ...randomRow(next, id), x: DOUBLES[id], big: BIGINTS[id % BIGINTS.length] };
        changes.push({ insert: row });
        live.set(id, row);
        touched.add(id);
      }
    }
    for (let k = 0; k < 1 + Math.floor(next() * 6); ++k) {
      const id = Math.floor(next() * 30);
      if (touched.has(id)) continue;
      touched.add(id);
      if (live.has(id) && next() < 0.3) {
        changes.push({ delete: live.get(id) });
        live.delete(id);
      } else {
        if (live.has(id)) changes.push({ delete: live.get(id) });
        const row = randomRow(next, id);
        changes.push({ insert: row });
        live.set(id, row);
      }
    }
    p.ingest('t', asJson(changes));
    p.step();
    for (const view of views) {
      await drain(streams[view], mirrors[view]);
      assert.deepStrictEqual(sortRows(mirrors[view]), sortRows(p.snapshot(view)), `${view} after step ${step}`);
    }
    seen.bigint ||= mirrors.plain.some((row) => typeof row.big === 'bigint');
    seen.nan ||= mirrors.plain.some((row) => Number.isNaN(row.x));
  }
  // The edge values went through: a BigInt (a JSON chunk) and a NaN were in the view at some step.
  assert.ok(seen.bigint && seen.nan, JSON.stringify(seen));
  p.close();
});

test('a row of weight > 1 comes as that many rows, -0 as 0, a NULL as null', async () => {
  const p = await Pipeline.create({ sql: SQL });
  p.pause();
  const stream = p.egress('names')[Symbol.asyncIterator]();
  p.insert('t', [{ id: 1, name: 'same', flag: true, x: -0 }, { id: 2, name: 'same', flag: true }, { id: 3, name: null, flag: null }]);
  p.step();
  const { value } = await stream.next();
  assert.deepStrictEqual(sortRows(value.inserts), sortRows([{ name: 'same', flag: true }, { name: 'same', flag: true }, { name: null, flag: null }]));
  assert.deepStrictEqual(value.deletes, []);
  assert.deepStrictEqual(Object.keys(value), ['sequenceNumber', 'step', 'snapshot', 'snapshotComplete', 'inserts', 'deletes']);
  const plain = p.egress('plain', { sendSnapshot: true })[Symbol.asyncIterator]();
  p.step();
  const snapshot = (await plain.next()).value;
  assert.equal(snapshot.snapshot, true);
  assert.equal(snapshot.snapshotComplete, true);
  assert.ok(Object.is(snapshot.inserts.find((row) => row.id === 1).x, 0));
  p.close();
});

test('short strings read through the cache of recent ones are the rows\' own (many share a slot)', async () => {
  // 4,000 distinct ASCII strings of 0–33 bytes over 1,024 slots: strings of
  // one length share slots, and each read must still give its row's string.
  const next = random(seed('row chunk strings'));
  const p = await Pipeline.create({ sql: SQL });
  p.pause();
  const stream = p.egress('names', { sendSnapshot: true })[Symbol.asyncIterator]();
  const names = new Set(['x'.repeat(32), 'y'.repeat(33)]);
  while (names.size < 4000) names.add(randomAscii(next));
  const rows = [...names].map((name, id) => ({ id, name, flag: id % 2 === 0 }));
  for (let round = 0; round < 2; ++round) {
    p.insert('t', rows);  // the second round replaces every row by itself: no change
    p.step();
  }
  p.insert('t', rows.map((row) => ({ ...row, name: `${row.name}!` })));
  p.step();
  const chunks = [];
  for (let i = 0; i < 2; ++i) chunks.push((await stream.next()).value);
  const seen = (list) => list.map((row) => `${row.flag}:${row.name}`).sort();
  assert.deepStrictEqual(seen(chunks[0].inserts), seen(rows));
  assert.deepStrictEqual(seen(chunks[1].deletes), seen(rows));
  assert.deepStrictEqual(seen(chunks[1].inserts), seen(p.snapshot('names')));
  assert.ok(chunks[1].inserts.every((row) => row.name.endsWith('!')));
  p.close();
});
