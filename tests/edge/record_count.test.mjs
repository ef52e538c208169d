// record_count.js against an oracle: for random bodies of random records
// (strings holding quotes, escapes, brackets, commas and newlines; nested
// arrays and objects; scalars), the count of a JSON array, of
// newline-delimited JSON and of CSV equals the records JSON.parse or the
// lines written give. Seeded (FRESHET_SEED, printed), 300 bodies per format.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import '../js/compiled_wasm_hooks.mjs';
import { random, seed } from '../js/support.mjs';

const { countCsvLines, countJsonValues, checkRecordCount } = await import('../../edge-worker/record_count.js');
const encode = (text) => new TextEncoder().encode(text);

function randomString(rng) {
  const pieces = ['a', ',', '[', ']', '{', '}', '"', '\\', '\n', ' ', 'é', '\t'];
  return Array.from({ length: Math.floor(rng() * 8) }, () => pieces[Math.floor(rng() * pieces.length)]).join('');
}

function randomValue(rng, depth = 0) {
  const kind = Math.floor(rng() * (depth > 2 ? 4 : 6));
  if (kind === 0) return Math.floor(rng() * 1e6) - 5e5;
  if (kind === 1) return randomString(rng);
  if (kind === 2) return [true, false, null][Math.floor(rng() * 3)];
  if (kind === 3) return rng() * 10;
  if (kind === 4) return Array.from({ length: Math.floor(rng() * 4) }, () => randomValue(rng, depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(rng() * 4) }, () => [randomString(rng), randomValue(rng, depth + 1)]));
}

test("JSON arrays and newline-delimited JSON: the count is the records'", () => {
  const rng = random(seed('record_count json'));
  for (let i = 0; i < 300; ++i) {
    const records = Array.from({ length: Math.floor(rng() * 40) }, () => ({ insert: randomValue(rng) }));
    const pretty = rng() < 0.3;
    const array = JSON.stringify(records, null, pretty ? 2 : undefined);
    assert.equal(countJsonValues(encode(array), 1), JSON.parse(array).length, array);
    const lines = records.map((record) => JSON.stringify(record)).join(rng() < 0.5 ? '\n' : '\r\n\n');
    assert.equal(countJsonValues(encode(lines), 0), records.length, lines);
    // Scalars as raw records too.
    const scalars = Array.from({ length: Math.floor(rng() * 10) }, () => JSON.stringify(randomValue(rng, 3)));
    assert.equal(countJsonValues(encode(`[${scalars.join(', ')}]`), 1), scalars.length);
    assert.equal(countJsonValues(encode(scalars.join('\n')), 0), scalars.length);
  }
});

test("CSV: the count is the lines written, a quoted field's newlines not counted", () => {
  const rng = random(seed('record_count csv'));
  for (let i = 0; i < 300; ++i) {
    const count = Math.floor(rng() * 40);
    const lines = Array.from({ length: count }, () => `${Math.floor(rng() * 100)},"${randomString(rng).replaceAll('"', '""')}"`);
    const text = lines.join(rng() < 0.5 ? '\n' : '\r\n') + (rng() < 0.5 ? '\n' : '');
    assert.equal(countCsvLines(encode(text)), count, text);
  }
});

test('checkRecordCount refuses past the limit, stops counting there, and skips bodies too small to pass it', () => {
  const records = (n) => encode(JSON.stringify(Array.from({ length: n }, (_, i) => ({ insert: { id: i } }))));
  assert.doesNotThrow(() => checkRecordCount(records(10), { format: 'json', array: true }, 10));
  assert.throws(() => checkRecordCount(records(11), { format: 'json', array: true }, 10), { code: 'TOO_MANY_RECORDS', status: 413 });
  assert.equal(countJsonValues(records(1000), 1, 10), 11, 'counting stops past the limit');
  // Fewer than 2 × limit bytes (13 × in insert_delete) cannot hold more than `limit` records: not scanned
  // (a malformed body is the parser's).
  assert.doesNotThrow(() => checkRecordCount(encode('1,2,3,4,5'), { format: 'json', array: true }, 5));
  assert.throws(() => checkRecordCount(encode('[1,2,3,4,5,6,7,8,9,10,11]'), { format: 'json', array: true }, 10), { code: 'TOO_MANY_RECORDS' });
  assert.doesNotThrow(() => checkRecordCount(encode('[1,2,3,4,5,6,7,8,9,10,11]'), { format: 'json', array: true, updateFormat: 'insert_delete' }, 10));
  const twelve = encode(JSON.stringify(Array.from({ length: 12 }, () => ({ insert: { x: 1 } }))));
  assert.ok(twelve.length >= 13 * 10);
  assert.throws(() => checkRecordCount(twelve, { format: 'json', array: true, updateFormat: 'insert_delete' }, 10), { code: 'TOO_MANY_RECORDS' });
});
