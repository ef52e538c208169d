// DurableObjectStorage over a stand-in for a Durable Object's storage that
// enforces its limits (a value of at most 128 KiB, 128 keys a call): the
// storage contract, parts, an interrupted put leaving the old blob, and a
// pipeline with durability: 'log' on it. On real workerd it runs in
// tests/edge/durable_ingress.test.mjs.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { DurableObjectStorage, Pipeline } from 'freshet';

import { checkStorageContract } from './storage_contract.mjs';
import { DURABLE_SQL } from './support.mjs';

const MAX_VALUE = 128 * 1024 + 32;  // as workerd and Miniflare enforce it

/** ctx.storage's key-value API over a Map, with its limits; `failAfter` puts fail from the n-th on. */
class FakeObjectStorage {
  map = new Map();
  calls = 0;
  failAfter = Infinity;
  #check(keys) {
    if (keys.length > 128) throw new Error(`${keys.length} keys in one call (at most 128)`);
  }
  async get(keyOrKeys) {
    if (!Array.isArray(keyOrKeys)) return this.map.get(keyOrKeys);
    this.#check(keyOrKeys);
    return new Map(keyOrKeys.filter((key) => this.map.has(key)).map((key) => [key, this.map.get(key)]));
  }
  async put(keyOrEntries, value) {
    if (++this.calls >= this.failAfter) throw new Error('object reset');
    const entries = typeof keyOrEntries === 'string' ? { [keyOrEntries]: value } : keyOrEntries;
    this.#check(Object.keys(entries));
    for (const [key, entry] of Object.entries(entries)) {
      if (entry?.byteLength > MAX_VALUE) throw new Error(`value of ${entry.byteLength} bytes under '${key}'`);
    }
    for (const [key, entry] of Object.entries(entries)) this.map.set(key, structuredClone(entry));
  }
  async delete(keyOrKeys) {
    const keys = Array.isArray(keyOrKeys) ? keyOrKeys : [keyOrKeys];
    this.#check(keys);
    for (const key of keys) this.map.delete(key);
  }
  async list({ prefix = '' } = {}) {
    return new Map([...this.map].filter(([key]) => key.startsWith(prefix)).sort(([a], [b]) => (a < b ? -1 : 1)));
  }
}

test('DurableObjectStorage meets the storage contract within the object limits', async () => {
  const object = new FakeObjectStorage();
  assert.ok((await checkStorageContract(new DurableObjectStorage(object, { prefix: 'c/' }), "DurableObjectStorage(prefix 'c/')")) > 30);
});

test('a blob of many parts (over 128 keys) reads back whole; overwriting and deleting leave no parts behind', async () => {
  const object = new FakeObjectStorage();
  const storage = new DurableObjectStorage(object, { prefix: 'x/', maxValueBytes: 1000 });
  const big = Uint8Array.from({ length: 300_500 }, (_, i) => (i * 7) & 0xff);
  await storage.put('big', big);
  assert.deepEqual(await storage.get('big'), big);
  assert.equal([...object.map.keys()].filter((key) => key.startsWith('x/p/')).length, 301);
  await storage.put('big', big.subarray(0, 10));
  assert.deepEqual(await storage.get('big'), big.subarray(0, 10));
  assert.equal([...object.map.keys()].filter((key) => key.startsWith('x/p/')).length, 1);
  await storage.delete('big');
  assert.deepEqual([...object.map.keys()], []);
  assert.throws(() => new DurableObjectStorage(object, { maxValueBytes: 3_000_000 }), { code: 'STORAGE_ERROR' });
});

test('a put that fails midway leaves the old blob readable', async () => {
  const object = new FakeObjectStorage();
  const storage = new DurableObjectStorage(object, { maxValueBytes: 100 });
  const old = new Uint8Array(1000).fill(1);
  await storage.put('b', old);
  object.failAfter = object.calls + 2;  // the second call of the next put fails
  await assert.rejects(storage.put('b', new Uint8Array(20_000).fill(2)), { code: 'STORAGE_ERROR', message: /object reset/ });
  assert.deepEqual(await storage.get('b'), old);
});

test("a pipeline with durability: 'log' on a Durable Object's storage resumes every acknowledged record", async () => {
  const object = new FakeObjectStorage();
  const storage = new DurableObjectStorage(object, { prefix: 'pipeline/' });
  const p = await Pipeline.create({ sql: DURABLE_SQL, storage, durability: 'log' });
  const rows = Array.from({ length: 5000 }, (_, id) => ({ id, v: id % 3 }));  // a log blob of several parts
  const token = await p.insert('t', rows);
  await p.waitForCompletion(token);
  p.pause();  // a crash
  const q = await Pipeline.create({ sql: DURABLE_SQL, storage, durability: 'log' });
  await q.waitForCompletion(token);
  assert.deepEqual(q.snapshot('totals').sort((a, b) => a.v - b.v), [{ v: 0, n: 1667 }, { v: 1, n: 1667 }, { v: 2, n: 1666 }]);
  await q.close();
});
