#!/usr/bin/env node
// Writes the row block fuzzer's seed corpus (tests/fuzz/corpus/row_block/)
// with the package's own writer, so the seeds are blocks JS really sends:
// each is a mode byte (bit 2: keyed table, see row_block_harness.h), then
// the block. Run from the project root: node tests/fuzz/make_row_block_seeds.mjs
import { writeFileSync } from 'node:fs';

import { RECORDS, ROWS, writeRowBlock } from '../../wasm-bindings/js/row_block.js';

// fuzz_schema() of json_input_harness.h, in order.
const NAMES = ['id', 'name', 'amount', 'b', 'tiny', 'small', 'i', 'r', 'd', 'day', 'ts', 'ID2'];
const rows = [
  { id: 1, name: 'north', amount: '12.34', b: true, tiny: 5, small: -300, i: 70000, r: 1.5, d: 0.1, day: '2024-02-29', ts: '2024-02-29 12:34:56.5', ID2: 7 },
  { id: 2, name: 'héllo', d: -1e300, day: '1970-01-01' },
  { id: 3, name: null, b: false, tiny: -128, i: 2147483647, r: 3.4e38, d: 5e-324, ID2: 9007199254740991 },
  { id: 4, name: '😀', amount: '-0.5', small: '42', r: 'NaN', d: '-Infinity' },
];
const seeds = {
  raw_keyless: [0, rows, ROWS],
  raw_keyed: [4, rows, ROWS],
  ops_keyed: [4, [{ insert: rows[0] }, { delete: { id: 1, day: '2024-02-29' } }, { delete: rows[1] }, { insert: rows[3] }], RECORDS],
  ops_keyless: [0, [{ insert: rows[2] }, { delete: rows[2] }], RECORDS],
};
for (const [name, [mode, records, kind]] of Object.entries(seeds)) {
  const heap = new Uint8Array(1 << 16);
  const size = writeRowBlock(heap, 8, heap.length - 8, records, NAMES, kind);
  if (size < 0) throw new Error(`${name}: the writer refused (${size})`);
  writeFileSync(new URL(`corpus/row_block/${name}`, import.meta.url), Buffer.concat([Buffer.from([mode]), heap.subarray(8, 8 + size)]));
}
