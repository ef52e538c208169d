// What a change leaves to V8's young-generation collector (a scavenge):
// its pause grows with the young objects still referenced when it runs, and
// a pause of 3-4 ms every few thousand changes made the slowest changes of a
// long run. V8 keeps the string of every number String() or a template
// converts in a cache in its old generation, so each change's completion
// token (a new number) and each live-view row's doubles left young strings
// there for every scavenge to copy; the package writes those digits itself
// (tokens.js, live_rows.js), and these tests check the text is unchanged.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { TokenBook } from '../../wasm-bindings/js/tokens.js';
import { valuesText } from '../../wasm-bindings/js/live_rows.js';

test('20,000 changes awaited on an egress stream leave next to nothing alive in the young generation', () => {
  // One scavenge after the changes: what survives it is what old objects (such
  // as V8's number-string cache) still referenced. With the tokens written by
  // a template it was 34-87 KB here (up to ~16,000 strings); now ~2 KB.
  const script = `
    import v8 from 'node:v8';
    import { Pipeline } from 'freshet';
    const p = await Pipeline.create({ sql: 'CREATE TABLE t (id INT NOT NULL PRIMARY KEY, x DOUBLE); CREATE MATERIALIZED VIEW v AS SELECT id % 10 AS k, SUM(x) AS s FROM t GROUP BY id % 10;' });
    p.pause();
    const stream = p.egress('v')[Symbol.asyncIterator]();
    for (let i = 0; i < 20000; ++i) {
      p.insert('t', [{ id: i, x: i + 0.5 }]);
      p.step();
      await stream.next();
    }
    gc({ type: 'minor' });
    console.log(v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_used_size);
    p.close();`;
  const survivingBytes = Number(execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script],
                                             { cwd: fileURLToPath(new URL('.', import.meta.url)), encoding: 'utf8' }).trim());
  assert.ok(survivingBytes < 16 * 1024, `${survivingBytes} bytes survived the scavenge`);
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
