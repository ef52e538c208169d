// Row objects cross into wasm as row blocks (wasm-bindings/js/row_block.js)
// when they are plain, as JSON otherwise. Either way an insert must mean
// exactly what the rows' JSON text means: the oracle is a second pipeline
// fed JSON.stringify(rows) as text, and errors must read (and count) as the
// text's do.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inspect } from 'node:util';

import { Pipeline } from 'freshet';

import { DELETES, RECORDS, REFUSED, writeRowBlock } from '../../wasm-bindings/js/row_block.js';
import { bag, random } from './support.mjs';

const SQL = `
CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, b BOOLEAN, i INT, d DOUBLE, r REAL, v VARCHAR, day DATE, n BIGINT NOT NULL);
CREATE MATERIALIZED VIEW everything AS SELECT * FROM t;
`;
const NAMES = ['id', 'b', 'i', 'd', 'r', 'v', 'day', 'n'];

async function pair() {
  const viaRows = await Pipeline.create({ sql: SQL });
  const viaText = await Pipeline.create({ sql: SQL });
  viaRows.pause();
  viaText.pause();
  return { viaRows, viaText };
}

/** JSON text of rows, BigInts written with every digit (as the package does). */
function jsonText(rows) {
  return JSON.stringify(rows, (key, value) => (typeof value === 'bigint' ? `\u0000${value}` : value))
    .replace(/"\\u0000(-?\d+)"/g, '$1');
}

/** Inserts `rows` both ways and checks the outcomes agree. */
function insertBoth(both, rows) {
  return ingestBoth(both, rows, 'raw');
}

/** Deletes `rows` (p.delete()) and ingests their {delete: row} records' JSON text; checks the outcomes agree. */
function deleteBoth(both, rows) {
  return ingestBoth(both, rows, 'delete');
}

/**
 * Ingests `records` as objects and as their JSON text; checks the outcomes
 * agree. `how`: 'raw' inserts rows, 'delete' deletes rows (p.delete()).
 */
function ingestBoth({ viaRows, viaText }, records, how = 'insert_delete') {
  const rows = records;
  let rowsError = null, textError = null;
  try {
    if (how === 'raw') viaRows.insert('t', rows);
    else if (how === 'delete') viaRows.delete('t', rows);
    else viaRows.ingest('t', rows);
  } catch (error) {
    rowsError = error;
  }
  try {
    if (how === 'delete') viaText.ingest('t', jsonText(rows.map((row) => ({ delete: row }))));
    else viaText.ingest('t', jsonText(rows), { updateFormat: how });
  } catch (error) {
    textError = error;
  }
  assert.equal(rowsError?.message, textError?.message, `rows ${inspect(rows)}`);
  assert.equal(rowsError?.code, textError?.code);
  return rowsError;
}

function sameState({ viaRows, viaText }) {
  viaRows.step();
  viaText.step();
  assert.deepEqual(bag(viaRows.snapshot('everything')), bag(viaText.snapshot('everything')));
  const [a, b] = [viaRows.stats().inputs.t, viaText.stats().inputs.t];
  assert.equal(a.totalRecords, b.totalRecords);
  assert.equal(a.parseErrors, b.parseErrors);
}

const STRINGS = ['', 'north', 'héllo wörld', '日本語', '😀 emoji', 'a"quote\\back\nline', '\u0000nul', 'x'.repeat(3000)];

test('random plain rows: inserted as blocks, the same as their JSON text', async () => {
  const next = random(7);
  const pick = (values) => values[Math.floor(next() * values.length)];
  const both = await pair();
  let id = 0;
  for (let call = 0; call < 60; ++call) {
    const rows = [];
    const count = 1 + Math.floor(next() * (call % 10 === 0 ? 2000 : 20));
    for (let k = 0; k < count; ++k) {
      const row = { id: id++, n: Math.floor(next() * 2 ** 53) * (next() < 0.5 ? -1 : 1) };
      if (next() < 0.7) row.b = next() < 0.5;
      if (next() < 0.7) row.i = pick([0, -0, 1, -2147483648, 2147483647, Math.floor(next() * 1000)]);
      if (next() < 0.7) row.d = pick([0, -0, 0.1, -1e300, 5e-324, next() * 1e6, 123456789.123456789]);
      if (next() < 0.7) row.r = pick([1.5, 0.1, -3.4e38, next()]);
      if (next() < 0.7) row.v = pick(STRINGS);
      if (next() < 0.5) row.day = pick(['2024-02-29', '1970-01-01', null]);
      if (next() < 0.2) row.v = null;
      rows.push(row);
    }
    assert.equal(insertBoth(both, rows), null);
    if (call % 7 === 0) sameState(both);
  }
  sameState(both);
  both.viaRows.close();
  both.viaText.close();
});

test('random inserts and deletes (by key and whole rows): as blocks, the same as their JSON text', async () => {
  const next = random(11);
  const both = await pair();
  const live = new Map();
  let id = 0;
  for (let call = 0; call < 80; ++call) {
    const records = [];
    const used = new Set();  // one insert of a key per call
    const count = 1 + Math.floor(next() * (call % 10 === 0 ? 500 : 8));
    for (let k = 0; k < count; ++k) {
      const known = [...live.keys()];
      if (known.length && next() < 0.4) {
        const key = known[Math.floor(next() * known.length)];
        if (used.has(key)) continue;
        used.add(key);
        // By key, or the whole row as inserted (a row that is not there deletes nothing).
        records.push({ delete: next() < 0.5 ? { id: key } : { ...live.get(key), d: next() < 0.3 ? 1 : live.get(key).d } });
        live.delete(key);
      } else {
        const key = next() < 0.2 && live.size ? [...live.keys()][0] : id++;
        if (used.has(key)) continue;
        used.add(key);
        const row = { id: key, n: Math.floor(next() * 1000), v: STRINGS[Math.floor(next() * 7)] };
        if (next() < 0.5) row.d = next() * 100;
        records.push({ insert: row });
        live.set(key, row);
      }
    }
    assert.equal(ingestBoth(both, records), null);
    if (call % 9 === 0) sameState(both);
  }
  // These crossed as a block (its size is what the stats count), deletes by key among them.
  const before = both.viaRows.stats().inputs.t.totalBytes;
  both.viaRows.ingest('t', [{ insert: { id: 700000, n: 1 } }, { delete: { id: 700000 } }, { delete: { id: 700001 } }]);
  assert.equal(both.viaRows.stats().inputs.t.totalBytes - before, 16 + 9 * 3 * NAMES.length + 3);
  both.viaText.ingest('t', '[{"insert": {"id": 700000, "n": 1}}, {"delete": {"id": 700000}}, {"delete": {"id": 700001}}]');
  // delete(): rows each deleted, by key and whole, cross as a block too
  // (with an operation byte a row, and no record object made for each).
  const doomed = [...live.keys()].slice(0, 6).map((key, i) => (i % 2 ? { id: key } : live.get(key)));
  const stringBytes = doomed.reduce((sum, row) => sum + (typeof row.v === 'string' ? 4 + new TextEncoder().encode(row.v).length : 0), 0);
  const beforeDeletes = both.viaRows.stats().inputs.t.totalBytes;
  assert.equal(deleteBoth(both, doomed), null);
  assert.equal(both.viaRows.stats().inputs.t.totalBytes - beforeDeletes, 16 + 9 * 6 * NAMES.length + 6 + stringBytes);
  assert.equal(deleteBoth(both, [{ id: 800000 }]), null);  // a key that is not there deletes nothing
  sameState(both);
  for (const rows of [[{ id: 1, n: 1.5 }], [{ v: 'no key' }], [{ id: 1, colour: 'red' }], [new Date()], [{ id: 2n ** 70n }]]) {
    assert.ok(deleteBoth(both, rows), `refused: ${inspect(rows)}`);
  }
  sameState(both);
  const bad = [
    [{ insert: { id: 1, n: 1 }, delete: { id: 2 } }],
    [{ upsert: { id: 1, n: 1 } }],
    [{ insert: 5 }],
    [{ delete: { id: 1, n: 1.5 } }],
    [{ delete: { v: 'no key' } }],
    [{ insert: { id: 900000, n: 1 } }, { insert: { id: 900000, n: 2 } }],
  ];
  for (const records of bad) assert.ok(ingestBoth(both, records), `refused: ${inspect(records)}`);
  sameState(both);
  both.viaRows.close();
  both.viaText.close();
});

test('rows that are not plain go as JSON and mean what their JSON means', async () => {
  const both = await pair();
  class Order {
    constructor(id) {
      this.id = id;
      this.n = 1;
    }
  }
  const cases = [
    [{ id: 1, n: 1, d: NaN }, { id: 2, n: 2, d: Infinity }],  // JSON writes null
    [{ id: 3, n: 3n }],  // BigInt: written with every digit
    [new Order(5)],
    [{ id: 6, n: 6, day: new Date(Date.UTC(2024, 0, 2)).toISOString().slice(0, 10) }],
    [{ id: 7, n: 7, extra: undefined, d: undefined }],  // undefined is left out
    [{ id: 8, n: 8, toJSON: () => ({ id: 8, n: 80 }) }],
    [Object.assign(Object.create(null), { id: 9, n: 9 })],
    [{ id: 10, n: 10, f: () => 1 }],
  ];
  for (const rows of cases) assert.equal(insertBoth(both, rows), null);
  sameState(both);
  const byId = new Map(both.viaRows.snapshot('everything').map((row) => [row.id, row]));
  assert.equal(byId.get(1).d, null);
  assert.equal(byId.get(8).n, 80);
  both.viaRows.close();
  both.viaText.close();
});

test('bad rows: the JSON text error, counted once, nothing applied', async () => {
  const both = await pair();
  const bad = [
    [{ id: 1, n: 1 }, { id: 2 }],  // n NOT NULL, missing
    [{ id: 1, n: null }],
    [{ id: 1, n: 1.5 }],
    [{ id: 1, n: 'abc' }],
    [{ id: 1, n: 1, i: 2 ** 31 }],
    [{ id: 1, n: 1, colour: 'red' }],
    [{ id: 1, n: 1, ID: 2 }],
    [{ id: 1, n: 1, day: '2024-02-30' }],
    [{ id: 1, n: 1, r: 1e39 }],
    [{ id: 1, n: 1 }, { id: 1, n: 2 }],  // one key twice in one call
    [{ id: 1, n: 1, d: { nested: true } }],
    [null],
    [{ id: 1, n: 1, v: 'lone \ud800 surrogate' }],  // JSON.stringify escapes it; the parser refuses
  ];
  for (const rows of bad) assert.ok(insertBoth(both, rows), `refused: ${inspect(rows)}`);
  sameState(both);
  assert.equal(both.viaRows.stats().inputs.t.parseErrors, bad.length);
  assert.equal(both.viaRows.snapshot('everything').length, 0);
  both.viaRows.close();
  both.viaText.close();
});

test('writeRowBlock: plain rows are written, others refused, short room asked for', () => {
  const heap = new Uint8Array(1 << 16);
  assert.equal(writeRowBlock(heap, 8, heap.length - 8, [{ id: 1, n: 2 }], NAMES), 16 + 9 * 8);
  assert.equal(writeRowBlock(heap, 4, heap.length - 8, [{ id: 1, n: 2 }], NAMES), REFUSED);  // unaligned
  for (const row of [{ id: 1n }, { id: NaN }, { id: 1, other: 2 }, { id: new Date() }, [1], 'row', { v: '\udc00' }]) {
    assert.equal(writeRowBlock(heap, 0, heap.length, [row], NAMES), REFUSED, inspect(row));
  }
  for (const record of [{ insert: { id: 1 }, delete: { id: 1 } }, { upsert: { id: 1 } }, { insert: [1] }, { insert: null }]) {
    assert.equal(writeRowBlock(heap, 0, heap.length, [record], NAMES, RECORDS), REFUSED, inspect(record));
  }
  assert.equal(writeRowBlock(heap, 0, heap.length, [{ delete: { id: 1 } }], NAMES, RECORDS), 16 + 9 * 8 + 1);
  // Rows to delete: the same block as their {delete: row} records, byte for byte.
  const deleted = [{ id: 1, v: 'héllo' }, { id: 2, b: true, day: null }];
  const [asRows, asRecords] = [new Uint8Array(1 << 12), new Uint8Array(1 << 12)];  // zeros where a cell has no value
  const size = writeRowBlock(asRows, 0, asRows.length, deleted, NAMES, DELETES);
  assert.equal(writeRowBlock(asRecords, 0, asRecords.length, deleted.map((row) => ({ delete: row })), NAMES, RECORDS), size);
  assert.deepEqual(asRows.subarray(0, size), asRecords.subarray(0, size));
  assert.equal(writeRowBlock(heap, 0, heap.length, [{ delete: { id: 1 } }], NAMES, DELETES), REFUSED);  // a record is not a row
  const needed = writeRowBlock(heap, 0, 100, [{ id: 1, v: 'x'.repeat(500) }], NAMES);
  assert.ok(needed < 0 && needed !== REFUSED && -needed >= 16 + 9 * 8 + 4 + 500, `${needed}`);
  assert.ok(writeRowBlock(heap, 0, -needed, [{ id: 1, v: 'x'.repeat(500) }], NAMES) > 0);
  // Room short of the fixed part: that and a guess for the strings, then
  // exactly what the strings past the guess need.
  const long = Array.from({ length: 4 }, (_, id) => ({ id, v: 'y'.repeat(300) }));
  const first = writeRowBlock(heap, 0, 100, long, NAMES);
  assert.ok(first < 0 && first !== REFUSED && -first > 16 + 9 * 8 * 4, `${first}`);
  const second = writeRowBlock(heap, 0, -first, long, NAMES);
  assert.ok(second < 0 && second !== REFUSED && -second >= 16 + 9 * 8 * 4 + 4 * 304, `${second}`);
  assert.equal(writeRowBlock(heap, 0, -second, long, NAMES), 16 + 9 * 8 * 4 + 4 * 304);
});

test('a block larger than the input buffer keeps, and strings of every width', async () => {
  const both = await pair();
  const rows = Array.from({ length: 30000 }, (_, id) => ({ id, n: id, v: STRINGS[id % STRINGS.length] }));
  assert.equal(insertBoth(both, rows), null);  // ~2 MB of block: past the kept buffer
  const stringBytes = rows.reduce((sum, row) => sum + 4 + new TextEncoder().encode(row.v).length, 0);
  // Blocks: in parts of 2,048 rows of 8 columns (engine_fast_path.js), a header each.
  const parts = Math.ceil(rows.length / 2048);
  assert.equal(both.viaRows.stats().inputs.t.totalBytes, 16 * parts + 9 * rows.length * NAMES.length + stringBytes);
  assert.equal(insertBoth(both, [{ id: 30000, n: 1, v: 'after' }]), null);
  sameState(both);
  assert.equal(both.viaRows.snapshot('everything').length, 30001);
  both.viaRows.close();
  both.viaText.close();
});

test('a bulk insert in parts is one insert: a bad row or a key twice in a later part refuses all of it as its JSON does', async () => {
  const both = await pair();
  const rows = (from, count) => Array.from({ length: count }, (_, i) => ({ id: from + i, n: i, v: STRINGS[i % STRINGS.length] }));
  const withNull = rows(0, 7000);
  withNull[5000].n = null;  // NOT NULL, in the third part
  assert.ok(insertBoth(both, withNull));
  const twice = rows(0, 7000);
  twice[6500].id = 10;  // a key of the first part again, in the fourth
  assert.ok(insertBoth(both, twice));
  const notPlain = rows(0, 7000);
  notPlain[4500] = new (class Row { constructor() { this.id = 4500; this.n = 1; } })();
  assert.equal(insertBoth(both, notPlain), null);  // as JSON, all of it
  sameState(both);
  assert.equal(both.viaRows.snapshot('everything').length, 7000);
  // Insert and delete records in parts.
  const records = [...rows(7000, 3000).map((row) => ({ insert: row })), ...rows(0, 3000).map((row) => ({ delete: { id: row.id } }))];
  assert.equal(ingestBoth(both, records), null);
  sameState(both);
  assert.equal(both.viaRows.snapshot('everything').length, 7000);
  assert.equal(both.viaRows.stats().inputs.t.parseErrors, 2);
  both.viaRows.close();
  both.viaText.close();
});
