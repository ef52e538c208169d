// Storage and sink faults: the retry wrapper (retrying.js) in isolation, then
// a pipeline whose FileStorage and sink fail every n-th call (fault_injection.js,
// both ways: before the call, and after it with the answer lost), checked
// against a pipeline that saw no fault: no row lost or doubled, checkpoints
// resumable, and stats().incidents saying what happened, once per incident.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { FreshetError, MapSink, MemoryStorage, Pipeline } from 'freshet';
import { FileStorage } from '../../wasm-bindings/js/storages/file_storage.js';
import { IncidentLog } from '../../wasm-bindings/js/incidents.js';
import { backoffMs, withRetries } from '../../wasm-bindings/js/retrying.js';
import { injectFaults, parseFaultSpec, withInjectedFaults } from '../../edge-worker/fault_injection.js';
import { ORDERS_SQL, bag, random, seed } from './support.mjs';

const FAST = { attempts: 6, firstDelayMs: 1, maxDelayMs: 4 };
const STORAGE_METHODS = ['put', 'get', 'list', 'delete'];

test('withRetries: a call that fails twice then succeeds is one incident of two failures, recovered', async () => {
  const incidents = new IncidentLog();
  let calls = 0;
  const target = { put: async () => { if (++calls <= 2) throw new Error(`outage ${calls}`); return 'ok'; } };
  const retried = withRetries(target, ['put'], { label: 'kv', incidents, policy: FAST });
  assert.equal(await retried.put(), 'ok');
  assert.equal(calls, 3);
  const { recent, ...totals } = incidents.snapshot();
  assert.deepEqual(totals, { incidents: 1, failures: 2, givenUp: 0 });
  assert.equal(recent.length, 1);
  assert.deepEqual({ ...recent[0], startedAt: 'x', durationMs: 0 },
                   { target: 'kv', operation: 'put', failures: 2, firstError: 'outage 1', lastError: 'outage 2',
                     startedAt: 'x', durationMs: 0, outcome: 'recovered' });
});

test('withRetries: gives up after `attempts` tries with the last error; the incident says failed', async () => {
  const incidents = new IncidentLog();
  let calls = 0;
  const retried = withRetries({ get: () => { throw new Error(`down ${++calls}`); } }, ['get'], { label: 'kv', incidents, policy: FAST });
  await assert.rejects(retried.get(), /down 6/);
  assert.equal(calls, FAST.attempts);
  assert.equal(incidents.snapshot().givenUp, 1);
  assert.equal(incidents.snapshot().recent[0].outcome, 'failed');
});

test('withRetries: a synchronous answer stays synchronous; caller mistakes are not retried; other properties pass through', async () => {
  const incidents = new IncidentLog();
  let calls = 0;
  class Sink {
    #rows = [];
    write(chunk) { this.#rows.push(chunk); }
    reset() { ++calls; throw new FreshetError('INVALID_ARGUMENT', 'bad'); }
    get rows() { return this.#rows; }
    describe() { return { type: 'Sink', rows: this.#rows.length }; }
  }
  const retried = withRetries(new Sink(), ['write', 'reset'], { label: 'sink', incidents, policy: FAST });
  assert.equal(retried.write(1), undefined, 'not a Promise');
  assert.deepEqual(retried.rows, [1]);
  assert.deepEqual(retried.describe(), { type: 'Sink', rows: 1 });
  await assert.rejects(retried.reset(), { code: 'INVALID_ARGUMENT' });
  assert.equal(calls, 1);
  // A storage refusing a blob name is not retried either; a storage whose call failed is.
  const storage = withRetries(new MemoryStorage(), ['put'], { label: 'memory', incidents, policy: FAST });
  await assert.rejects(storage.put('a/b', new Uint8Array(1)), { code: 'STORAGE_ERROR', message: /path separator/ });
  assert.equal(incidents.snapshot().failures, 0);
});

test('a slow, failing storage: a checkpoint holds exactly the state of one step, whatever is ingested while it is written', async () => {
  const blobs = new MemoryStorage();
  const storage = injectFaults(blobs, STORAGE_METHODS, { slowMs: 15, failEvery: 3 });
  const p = await Pipeline.create({ sql: ORDERS_SQL, storage, storageRetry: FAST });
  p.insert('customers', { id: 1, region: 'north' });
  p.insert('orders', { id: 1, customer: 1, amount: 5 });
  p.step();
  const states = new Map([[p.stats().step, p.snapshot('by_region')]]);  // step count → the view then
  const writing = p.checkpoint();
  for (let i = 2; i < 8; ++i) {
    p.insert('orders', { id: i, customer: 1, amount: i });
    p.step();
    states.set(p.stats().step, p.snapshot('by_region'));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const written = await writing;
  assert.ok(storage.injected.failedBefore + storage.injected.failedAfter > 0);
  p.close();
  const resumed = await Pipeline.create({ sql: ORDERS_SQL, storage: blobs });
  assert.equal(resumed.stats().step, written.step);
  assert.deepEqual(resumed.snapshot('by_region'), states.get(written.step));
  resumed.close();
});

test('backoff grows exponentially up to its cap, with jitter in the upper half', () => {
  const policy = { attempts: 10, firstDelayMs: 20, maxDelayMs: 1000 };
  assert.deepEqual([1, 2, 3, 4].map((n) => backoffMs(n, policy, () => 0)), [10, 20, 40, 80]);
  assert.deepEqual([1, 2, 3, 4].map((n) => backoffMs(n, policy, () => 1)), [20, 40, 80, 160]);
  assert.equal(backoffMs(30, policy, () => 1), 1000);
});

/** Random orders and customers, some updated and deleted: one batch per call. */
function batches(name, count) {
  const rng = random(seed(name));
  const live = new Set();
  const out = [];
  for (let b = 0; b < count; ++b) {
    const customers = [{ insert: { id: b % 7, region: `r${b % 3}` } }];
    const orders = [];
    const used = new Set();  // one change per key in a batch
    for (let i = 0; i < 20; ++i) {
      const id = Math.floor(rng() * 200);
      if (used.has(id)) continue;
      used.add(id);
      if (live.has(id) && rng() < 0.4) {
        orders.push({ delete: { id } });
        live.delete(id);
      } else {
        orders.push({ insert: { id, customer: Math.floor(rng() * 7), amount: Math.floor(rng() * 1000) } });
        live.add(id);
      }
    }
    out.push({ customers, orders });
  }
  return out;
}

test('every 3rd storage call and every 4th sink write fail: no row lost or doubled, checkpoints resume, stats count the faults once each', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'freshet-faults-'));
  try {
    const storage = injectFaults(new FileStorage(dir), STORAGE_METHODS, { failEvery: 3 });
    const mirror = new MapSink();
    const sink = injectFaults(mirror, ['write', 'reset'], { failEvery: 4 });
    const p = await Pipeline.create({ sql: ORDERS_SQL, storage, storageRetry: FAST,
                                      outputs: { dash: { view: 'by_region', index: 'by_region_idx', sendSnapshot: true, sink } } });
    const clean = await Pipeline.create({ sql: ORDERS_SQL });
    let token;
    for (const [i, { customers, orders }] of batches('storage faults', 40).entries()) {
      for (const q of [clean, p]) {
        q.ingest('customers', customers);
        token = q.ingest('orders', orders);  // p's, which is last
      }
      p.step();
      clean.step();
      if (i % 8 === 7) await p.checkpoint();
    }
    await p.waitForCompletion(token);
    assert.deepEqual(bag(p.snapshot('by_region')), bag(clean.snapshot('by_region')), 'the faults changed no result');
    assert.deepEqual(bag(mirror.rows()), bag(clean.snapshot('by_region')), 'the sink holds the view: nothing lost or doubled');
    const injected = storage.injected.failedBefore + storage.injected.failedAfter + sink.injected.failedBefore + sink.injected.failedAfter;
    assert.ok(storage.injected.failedAfter > 0 && sink.injected.failedAfter > 0, 'both kinds of fault happened');
    const stats = p.stats();
    assert.equal(stats.incidents.failures, injected, 'every injected fault is counted');
    assert.equal(stats.incidents.givenUp, 0);
    assert.ok(stats.incidents.recent.every((incident) => incident.outcome === 'recovered' && incident.failures === 1));
    assert.equal(stats.outputs.dash.errors, 0, 'retried faults are incidents, not connector errors');
    assert.equal(stats.checkpoint.failedWrites, 0);
    const { step, sequenceNumber } = stats.checkpoint;
    p.close();
    // The checkpoints written through the faults resume, with no fault.
    const resumed = await Pipeline.create({ sql: ORDERS_SQL, storage: new FileStorage(dir) });
    assert.equal(resumed.stats().checkpoint.restoredFrom, sequenceNumber);
    assert.equal(resumed.stats().step, step);
    resumed.close();
    clean.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a checkpoint write that fails leaves the previous checkpoint in use, and stats and a resume say so', async () => {
  const blobs = new MemoryStorage();
  let down = false;
  const storage = {
    put: (name, bytes) => (down && name.endsWith('.manifest') ? Promise.reject(new Error('KV PUT failed: 500')) : blobs.put(name, bytes)),
    get: (name) => blobs.get(name),
    list: (prefix) => blobs.list(prefix),
    delete: (name) => blobs.delete(name),
  };
  const p = await Pipeline.create({ sql: ORDERS_SQL, storage, storageRetry: FAST });
  p.insert('customers', { id: 1, region: 'north' });
  p.insert('orders', { id: 1, customer: 1, amount: 5 });
  p.step();
  const first = await p.checkpoint();
  p.insert('orders', { id: 2, customer: 1, amount: 7 });
  p.step();
  down = true;
  await assert.rejects(p.checkpoint(), { code: 'STORAGE_ERROR', message: /KV PUT failed: 500/ });
  const { checkpoint, incidents } = p.stats();
  assert.equal(checkpoint.sequenceNumber, first.sequenceNumber, 'the previous checkpoint is the one in use');
  assert.equal(checkpoint.failedWrites, 1);
  assert.equal(checkpoint.lastFailure.inUse, first.sequenceNumber);
  assert.match(checkpoint.lastFailure.error, /KV PUT failed: 500/);
  assert.equal(incidents.givenUp, 1);
  assert.equal(incidents.recent.at(-1).failures, FAST.attempts, 'one incident for all the tries');
  p.close();
  down = false;
  const resumed = await Pipeline.create({ sql: ORDERS_SQL, storage });
  assert.equal(resumed.stats().checkpoint.restoredFrom, first.sequenceNumber);
  assert.deepEqual(resumed.snapshot('by_region'), [{ region: 'north', orders: 1, total: 5 }]);
  // The next checkpoint after the outage is whole and newer than both.
  const next = await resumed.checkpoint();
  assert.ok(next.sequenceNumber > first.sequenceNumber + 1);
  resumed.close();
});

test('Pipeline.create checks storageRetry', async () => {
  await assert.rejects(Pipeline.create({ sql: ORDERS_SQL, storageRetry: { attempts: 0 } }), { code: 'INVALID_ARGUMENT', message: /attempts/ });
  await assert.rejects(Pipeline.create({ sql: ORDERS_SQL, storageRetry: { tries: 3 } }), { code: 'INVALID_ARGUMENT', message: /tries/ });
});

test('FRESHET_FAULTS: parsed strictly; without it the env is left as it is', () => {
  assert.deepEqual(parseFaultSpec('fail_every=7, slow_ms=5'), { failEvery: 7, slowMs: 5 });
  assert.throws(() => parseFaultSpec('fail_every=x'), /whole number/);
  assert.throws(() => parseFaultSpec('fail_sometimes=1'), /unknown 'fail_sometimes'/);
  const env = { KV: new MemoryStorage() };
  assert.equal(withInjectedFaults(env), env);
  assert.notEqual(withInjectedFaults({ ...env, FRESHET_FAULTS: 'fail_every=2' }).KV, env.KV);
});
