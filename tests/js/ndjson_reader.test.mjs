// The web demo's NDJSON reader (web-demo/page/ndjson_reader.js): the edge
// worker's egress wire format, split across network chunks in every awkward way.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { readNdjson } from '../../web-demo/page/ndjson_reader.js';

const encoder = new TextEncoder();

/** A byte stream delivering `parts` (strings or byte arrays) one read at a time. */
function streamOf(parts) {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(typeof part === 'string' ? encoder.encode(part) : part);
      controller.close();
    },
  });
}

async function collect(parts) {
  const objects = [];
  for await (const object of readNdjson(streamOf(parts))) objects.push(object);
  return objects;
}

const CHUNKS = [
  { sequence_number: 0, snapshot: true, snapshot_complete: false, json_data: [{ insert: { region: 'Nörth', n: 1 } }] },
  { sequence_number: 1, snapshot: true, snapshot_complete: true, json_data: [] },
  { sequence_number: 2, snapshot: false, json_data: [{ delete: { region: 'Nörth', n: 1 } }, { insert: { region: 'Nörth', n: 2 } }] },
  { sequence_number: 3, snapshot: false },
];
const WIRE = CHUNKS.map((chunk) => `${JSON.stringify(chunk)}\r\n`).join('');

test('whole objects, one per \\r\\n line', async () => {
  assert.deepEqual(await collect([WIRE]), CHUNKS);
});

test('every possible split into two reads gives the same objects', async () => {
  const bytes = encoder.encode(WIRE);
  for (let at = 0; at <= bytes.length; ++at) {
    assert.deepEqual(await collect([bytes.slice(0, at), bytes.slice(at)]), CHUNKS, `split at byte ${at}`);
  }
});

test('one byte per read (a UTF-8 character split across reads)', async () => {
  const bytes = encoder.encode(WIRE);
  assert.deepEqual(await collect([...bytes].map((byte) => new Uint8Array([byte]))), CHUNKS);
});

test('blank lines are skipped, \\n alone works, a last line without its ending is kept', async () => {
  assert.deepEqual(await collect(['\r\n{"a":1}\n\n', '{"b":2}\r\n\r\n{"c"', ':3}']), [{ a: 1 }, { b: 2 }, { c: 3 }]);
});

test('an empty stream yields nothing', async () => {
  assert.deepEqual(await collect([]), []);
});

test('a line that is not JSON is an error naming it', async () => {
  await assert.rejects(collect(['{"a":1}\r\nnot json\r\n']), /a line is not JSON.*not json/);
});
