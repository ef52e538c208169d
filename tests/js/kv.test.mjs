// KVStorage and KVSink in real workerd (Miniflare) against a real KV
// namespace persisted in a temporary folder: kv_worker.mjs exposes them over
// fetch and this test drives it. Restarting Miniflare on the same folder
// checks that what was written is really stored.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { Miniflare } from 'miniflare';

const root = fileURLToPath(new URL('../..', import.meta.url));
const kvPersist = mkdtempSync(join(tmpdir(), 'freshet-kv-'));
let mf;

function start() {
  return new Miniflare({
    modules: true,
    scriptPath: join(root, 'tests/js/kv_worker.mjs'),
    modulesRoot: root,
    modulesRules: [{ type: 'ESModule', include: ['**/*.mjs', '**/*.js'] }],
    compatibilityDate: '2025-01-01',
    kvNamespaces: ['KV'],
    kvPersist,
    host: '127.0.0.1',
  });
}

before(async () => {
  mf = start();
  await mf.ready;
});
after(async () => {
  await mf?.dispose();
  rmSync(kvPersist, { recursive: true, force: true });
});

/** Runs one operation in the worker; resolves with its result or rejects with its error object. */
async function call(op, args = {}) {
  const response = await mf.dispatchFetch('http://worker/', { method: 'POST', body: JSON.stringify({ op, ...args }) });
  const body = await response.json();
  if (body.error) throw Object.assign(new Error(body.error.message), body.error);
  return body.result;
}

const header = (sequenceNumber, snapshot = false) => ({ sequenceNumber, step: sequenceNumber + 1, snapshot, snapshotComplete: snapshot });

test('KVStorage meets the storage contract inside workerd', async () => {
  assert.ok((await call('contract', { prefix: 'contract/' })) > 30);
  assert.deepEqual(await call('dump', { prefix: 'contract/' }), {}, 'the contract cleans up after itself');
});

test('KVStorage: put, get, overwrite, delete, prefixes kept apart', async () => {
  await call('put', { prefix: 'p1/', name: 'manifest', bytes: [1, 2, 3] });
  await call('put', { prefix: 'p2/', name: 'manifest', bytes: [4] });
  assert.deepEqual(await call('get', { prefix: 'p1/', name: 'manifest' }), [1, 2, 3]);
  assert.deepEqual(await call('get', { prefix: 'p2/', name: 'manifest' }), [4]);
  assert.deepEqual(await call('list', { prefix: 'p1/', listPrefix: '' }), ['manifest'], 'names come back without the prefix');
  await call('put', { prefix: 'p1/', name: 'manifest', bytes: [7] });
  assert.deepEqual(await call('get', { prefix: 'p1/', name: 'manifest' }), [7]);
  assert.equal(await call('get', { prefix: 'p1/', name: 'nothing' }), null);
  await call('delete', { prefix: 'p1/', name: 'manifest' });
  assert.equal(await call('get', { prefix: 'p1/', name: 'manifest' }), null);
  assert.deepEqual(await call('get', { prefix: 'p2/', name: 'manifest' }), [4], 'another prefix is untouched');
  const error = await call('put', { prefix: 'p1/', name: 'a/b', bytes: [1] }).catch((e) => e);
  assert.equal(error.code, 'STORAGE_ERROR');
  assert.match(error.message, /^KVStorage\(prefix 'p1\/'\): cannot write blob 'a\/b': /);
  const big = await call('tooBig', { prefix: 'p1/' }).catch((e) => e);
  assert.equal(big.code, 'STORAGE_ERROR');
  assert.match(big.message, /cannot write blob 'huge': 26214401 bytes is more than KV's limit of 25 MiB/);
});

// Miniflare's KV takes ~7 ms a write, so the pagination tests use just over
// one page (1000 keys): 1001 blobs, listed, then wiped by KVSink.reset.
const PAGE_PLUS_ONE = Array.from({ length: 1001 }, (_, i) => `part-${String(i).padStart(5, '0')}`);

test('KVStorage.list follows the cursor past 1000 keys, sorted, only under its prefix', async () => {
  const names = PAGE_PLUS_ONE;
  for (let i = 0; i < names.length; i += 500) await call('fill', { prefix: 'many/', names: names.slice(i, i + 500) });
  await call('fill', { prefix: 'many/', names: ['manifest-1', 'zz'] });
  await call('fill', { prefix: 'many-not/', names: ['part-x'] });
  const listed = await call('list', { prefix: 'many/', listPrefix: 'part-' });
  assert.equal(listed.length, 1001);
  assert.deepEqual(listed, names);
  assert.deepEqual(await call('list', { prefix: 'many/', listPrefix: 'm' }), ['manifest-1']);
  assert.equal((await call('list', { prefix: 'many/', listPrefix: '' })).length, 1003);
});

test('KVSink through an index: snapshot, deltas, idempotent rewrite', async () => {
  const prefix = 'dash/';
  assert.deepEqual(await call('describe', { prefix }), { type: 'KVSink', prefix });
  const snapshot = {
    ...header(0, true),
    upserts: [
      { key: { region: 'west' }, row: { region: 'west', orders: 1, total: 10 } },
      { key: { region: 'east' }, row: { region: 'east', orders: 2, total: 5.5 } },
      { key: { region: null }, row: { region: null, orders: 1, total: 1 } },
    ],
    deletes: [],
  };
  await call('sinkWrite', { prefix, chunk: snapshot });
  const delta = {
    ...header(1),
    upserts: [{ key: { region: 'west' }, row: { region: 'west', orders: 2, total: 30 } }],
    deletes: [{ key: { region: 'east' } }, { key: { region: 'west' } }],
  };
  await call('sinkWrite', { prefix, chunk: delta });
  const expected = {
    'dash/["west"]': { region: 'west', orders: 2, total: 30 },
    'dash/[null]': { region: null, orders: 1, total: 1 },
  };
  assert.deepEqual(await call('dump', { prefix }), expected);
  // A crash after the write but before the acknowledgement: the chunks come again.
  await call('sinkWrite', { prefix, chunk: snapshot });
  await call('sinkWrite', { prefix, chunk: delta });
  assert.deepEqual(await call('dump', { prefix }), expected, 'writing the chunks again gives the same state');
});

test('KVSink on a view: rows with counts; a retried chunk that failed halfway is not counted twice', async () => {
  const prefix = 'rows/';
  const row = (id, amount) => ({ id, amount });
  await call('sinkWrite', { prefix, chunk: { ...header(0, true), inserts: [row(1, 5), row(1, 5), row(2, 7)], deletes: [] } });
  await call('sinkWrite', { prefix, chunk: { ...header(1), inserts: [row(3, 1)], deletes: [row(1, 5), row(2, 7)] } });
  assert.deepEqual(await call('dump', { prefix }), {
    'rows/{"amount":5,"id":1}': { row: { id: 1, amount: 5 }, count: 1, sequenceNumber: 1 },
    'rows/{"amount":1,"id":3}': { row: { id: 3, amount: 1 }, count: 1, sequenceNumber: 1 },
  });

  // Ten new rows; KV fails after four puts, then the pipeline retries the chunk.
  const chunk = { ...header(2), inserts: Array.from({ length: 10 }, (_, i) => row(100 + i, i)), deletes: [row(3, 1)] };
  const error = await call('sinkWrite', { prefix, chunk, failAfterPuts: 4 }).catch((e) => e);
  assert.equal(error.code, 'STORAGE_ERROR');
  assert.match(error.message, /^KVSink\(prefix 'rows\/'\): cannot write chunk '2': injected KV failure/);
  await call('sinkWrite', { prefix, chunk });
  await call('sinkWrite', { prefix, chunk });  // and once more, for good measure
  const entries = await call('dump', { prefix });
  assert.equal(Object.keys(entries).length, 11);
  for (const entry of Object.values(entries)) assert.equal(entry.count, 1, JSON.stringify(entry));
  assert.equal(entries['rows/{"amount":1,"id":3}'], undefined);

  // A row too long for a 512-byte key is stored under its hash.
  const long = { id: 9, text: 'x'.repeat(600) };
  await call('sinkWrite', { prefix: 'long/', chunk: { ...header(0), inserts: [long], deletes: [] } });
  const [[key, value]] = Object.entries(await call('dump', { prefix: 'long/' }));
  assert.match(key, /^long\/#[0-9a-f]{64}$/);
  assert.deepEqual(value.row, long);
  await call('sinkWrite', { prefix: 'long/', chunk: { ...header(1), inserts: [], deletes: [long] } });
  assert.deepEqual(await call('dump', { prefix: 'long/' }), {});
});

test('KVSink.reset deletes every key under its prefix (more than one page of them) and nothing else', async () => {
  // 'many/' holds the 1003 blobs of the pagination test; a sink on it wipes them.
  const prefix = 'many/';
  await call('sinkWrite', { prefix, chunk: { ...header(0), upserts: [{ key: { id: 1 }, row: { id: 1 } }], deletes: [] } });
  assert.equal((await call('list', { prefix, listPrefix: '' })).length, 1004);
  await call('sinkReset', { prefix });
  assert.deepEqual(await call('list', { prefix, listPrefix: '' }), []);
  assert.deepEqual(await call('list', { prefix: 'many-not/', listPrefix: '' }), ['part-x'], "'many-not/' is not under 'many/'");
  assert.deepEqual(await call('dump', { prefix: 'dash/' }), {
    'dash/["west"]': { region: 'west', orders: 2, total: 30 },
    'dash/[null]': { region: null, orders: 1, total: 1 },
  }, 'another sink is untouched');
  await call('sinkReset', { prefix });  // resetting an empty prefix is fine
});

test('KV contents survive a Miniflare restart on the same kvPersist folder', async () => {
  await call('put', { prefix: 'keep/', name: 'checkpoint-7', bytes: [7, 7, 7] });
  await call('sinkWrite', { prefix: 'keep-sink/', chunk: { ...header(0, true), upserts: [{ key: { k: 'a' }, row: { k: 'a', v: 1 } }], deletes: [] } });
  await mf.dispose();
  mf = start();
  await mf.ready;
  assert.deepEqual(await call('get', { prefix: 'keep/', name: 'checkpoint-7' }), [7, 7, 7]);
  assert.deepEqual(await call('list', { prefix: 'keep/', listPrefix: '' }), ['checkpoint-7']);
  assert.deepEqual(await call('dump', { prefix: 'keep-sink/' }), { 'keep-sink/["a"]': { k: 'a', v: 1 } });
  assert.deepEqual(await call('list', { prefix: 'many-not/', listPrefix: '' }), ['part-x']);
});
