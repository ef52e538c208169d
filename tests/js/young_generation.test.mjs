// What a change leaves to V8's young-generation collector (a scavenge):
// its pause grows with the young objects still referenced when it runs, and
// pauses of 3-7 ms every few thousand changes were the slowest changes of a
// long run. Old objects referencing young ones keep them alive: V8's cache
// of number strings (each change's completion token, a live view's doubles:
// tokens.js writes those digits itself, live_rows.js has JSON.stringify
// write them), hash tables V8 rebuilds in the old generation (a live view's
// Map: renewed), and objects of literals V8 decided to allocate old (a
// step's signal, a mirror's entries: classes). The first tests measure what
// survives; the others check the digits are the same text.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runModule } from './support.mjs';
import { TokenBook } from '../../wasm-bindings/js/tokens.js';
import { valuesText } from '../../wasm-bindings/js/live_rows.js';

// 20,000 changes of a view of 10 groups, each stepped and followed by the
// bytes still in the young generation after one scavenge: what old objects
// (V8's number-string cache, tables and objects it allocated in the old
// generation) still referenced. `follow` is the application's way of
// following the view: code that makes `changed`, a promise of the next delta.
function youngBytesAfterChanges(follow) {
  const script = `
    import v8 from 'node:v8';
    import { Pipeline } from 'freshet';
    const p = await Pipeline.create({ sql: 'CREATE TABLE t (id INT NOT NULL PRIMARY KEY, x DOUBLE); CREATE MATERIALIZED VIEW v AS SELECT id % 10 AS k, SUM(x) AS s FROM t GROUP BY id % 10;' });
    p.pause();
    ${follow}
    for (let i = 0; i < 20000; ++i) {
      const delta = changed();
      p.insert('t', [{ id: i, x: i + 0.5 }]);
      p.step();
      await delta;
    }
    gc({ type: 'minor' });
    console.log(v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_used_size);
    p.close();`;
  return Number(runModule(script, ['--expose-gc']).trim());
}

test('20,000 changes awaited on an egress stream leave next to nothing alive in the young generation', () => {
  // With the tokens written by a template 34-87 KB survived here (up to
  // ~16,000 strings in the cache); now ~2 KB.
  const bytes = youngBytesAfterChanges("const stream = p.egress('v')[Symbol.asyncIterator](); const changed = () => stream.next();");
  assert.ok(bytes < 16 * 1024, `${bytes} bytes survived the scavenge`);
});

test('20,000 changes followed by a live view by value leave next to nothing alive in the young generation', () => {
  // Before the mirror's Map was renewed (live_rows.js, RowsByValue#renew) and
  // its entries made by classes, 7-62 KB survived here (most runs over 16
  // KB), and 400 KB-1.5 MB in the 200k-order dashboard; now ~7 KB.
  const bytes = youngBytesAfterChanges(`
    const view = p.live('v');
    let wake = null;
    view.subscribe(() => wake?.());
    const changed = () => new Promise((resolve) => { wake = resolve; });`);
  assert.ok(bytes < 16 * 1024, `${bytes} bytes survived the scavenge`);
});

test('a completion token carries its number in decimal, as String() writes it', () => {
  const book = new TokenBook();
  const numbers = [0, 1, 9, 10, 99, 100, 101, 999, 1000, 1001, 1010, 99999, 100000, 123456789, 4294967296, 999999999999999];
  for (const n of numbers) {
    const token = book.issue(n);
    assert.equal(token, `${book.incarnation}-${String(n)}`);
    assert.equal(book.number(token), n);
  }
});

test('a live view writes a number\'s text as String() does, and NaN, the infinities and null apart', () => {
  const numbers = [0, -0, 1, -1.5, 0.1, 1e21, 1.5e-7, 5e-324, Number.MAX_VALUE, 2 ** 53 + 2, 123456.789];
  for (const n of numbers) assert.equal(valuesText([n]), `${String(n)},`);
  const texts = [NaN, Infinity, -Infinity, null, 'NaN', 0].map((value) => valuesText([value]));
  assert.equal(new Set(texts).size, texts.length);
});
