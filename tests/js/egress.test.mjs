// The egress iterator: snapshot then deltas with no gap and no overlap
// (checked against p.snapshot() after every random step), index egress,
// lag policies, and release on close() or break.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Pipeline } from 'freshet';

import { ORDERS_SQL, bag, random, seed, tick } from './support.mjs';

const ORACLE_SQL = `${ORDERS_SQL}
CREATE MATERIALIZED VIEW big_orders AS SELECT id, customer, amount FROM orders WHERE amount > 50;
CREATE MATERIALIZED VIEW customer_counts AS SELECT customer, COUNT(*) AS n FROM orders GROUP BY customer;`;

/** Applies chunks of a plain egress to a multiset (JSON text → count). */
function applyRows(state, chunk) {
  for (const row of chunk.inserts) state.set(bagKey(row), (state.get(bagKey(row)) ?? 0) + 1);
  for (const row of chunk.deletes) {
    const count = state.get(bagKey(row));
    assert.ok(count > 0, `delete of an absent row ${bagKey(row)}`);
    if (count === 1) state.delete(bagKey(row));
    else state.set(bagKey(row), count - 1);
  }
}
const bagKey = (row) => bag([row])[0];
const expand = (state) => [...state].flatMap(([row, count]) => Array(count).fill(row)).sort();

/** Takes every chunk queued for `stream` now (without waiting for a step). */
async function drain(p, stream) {
  const chunks = [];
  for (let n = p.stats().egress[stream.id].queuedChunks; n > 0; --n) chunks.push((await stream.next()).value);
  return chunks;
}

test('oracle: snapshot + every delta equals p.snapshot() after each of many random steps', async () => {
  const rng = random(seed('egress oracle'));
  const p = await Pipeline.create({ sql: ORACLE_SQL });
  p.pause();
  const pick = (n) => Math.floor(rng() * n);
  const views = ['by_region', 'big_orders', 'customer_counts'];
  const followers = [];   // { view, stream, state, index, sequence }
  for (let step = 0; step < 300; ++step) {
    // Random changes: customers move regions, orders come, change and go.
    // A PRIMARY KEY table refuses two inserts of one key in one call: one call per record.
    for (let i = pick(4); i > 0; --i) p.ingest('customers', [{ insert: { id: pick(12), region: `r${pick(4)}` } }]);
    const orders = [];
    for (let i = pick(12); i > 0; --i) {
      orders.push(rng() < 0.3 ? { delete: { id: pick(40) } } : { insert: { id: pick(40), customer: pick(12), amount: pick(100) } });
    }
    for (const record of orders) p.ingest('orders', [record]);
    // New followers join at random moments, with a snapshot.
    if (step % 60 === 5) {
      for (const view of views) {
        followers.push({ view, stream: p.egress(view, { sendSnapshot: true }), state: new Map(), sequence: 0 });
      }
      followers.push({ view: 'by_region', index: 'by_region_idx', state: new Map(), sequence: 0,
                       stream: p.egress('by_region', { sendSnapshot: true, index: 'by_region_idx' }) });
    }
    p.step();
    for (const follower of followers) {
      for (const chunk of await drain(p, follower.stream)) {
        assert.equal(chunk.sequenceNumber, follower.sequence++);
        assert.equal(chunk.snapshot, follower.sequence === 1);
        assert.equal(chunk.snapshotComplete, follower.sequence === 1);
        if (follower.index) {
          for (const { key } of chunk.deletes) follower.state.delete(key.region);
          for (const { key, row } of chunk.upserts) follower.state.set(key.region, row);
        } else {
          applyRows(follower.state, chunk);
        }
      }
      const expected = p.snapshot(follower.view);
      if (follower.index) {
        assert.deepEqual(bag([...follower.state.values()]), bag(expected), `step ${step}`);
      } else {
        assert.deepEqual(expand(follower.state), bag(expected), `${follower.view} at step ${step}`);
      }
    }
  }
  for (const { stream } of followers) stream.close();
  p.close();
});

test('the snapshot is one chunk, however large the view; an empty view sends one empty snapshot chunk', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  const empty = p.egress('by_region', { sendSnapshot: true });
  const first = (await empty.next()).value;
  assert.deepEqual(first, { sequenceNumber: 0, step: 0, snapshot: true, snapshotComplete: true, inserts: [], deletes: [] });
  empty.close();
  const customers = Array.from({ length: 12000 }, (_, id) => ({ id, region: `region ${id}` }));
  p.insert('customers', customers);
  p.insert('orders', customers.map(({ id }) => ({ id, customer: id, amount: 1 })));
  p.step();
  const full = p.egress('by_region', { sendSnapshot: true });
  const chunk = (await full.next()).value;
  assert.equal(chunk.snapshot, true);
  assert.equal(chunk.snapshotComplete, true);
  assert.equal(chunk.inserts.length, 12000);
  assert.equal(p.stats().egress[full.id].queuedChunks, 0);
  full.close();
  p.close();
});

test('without sendSnapshot only deltas arrive, one chunk per step that changed the view', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  p.insert('customers', { id: 1, region: 'north' });
  p.step();
  const changes = p.egress('by_region');
  p.insert('orders', { id: 1, customer: 1, amount: 2 });
  p.step();
  p.step();  // no change: no chunk
  p.insert('orders', { id: 1, customer: 1, amount: 3 });
  p.step();
  const a = (await changes.next()).value;
  const b = (await changes.next()).value;
  assert.deepEqual([a.sequenceNumber, a.step, a.snapshot], [0, 1, false]);
  assert.deepEqual(a.inserts, [{ region: 'north', orders: 1, total: 2 }]);
  assert.deepEqual([b.sequenceNumber, b.step], [1, 3]);
  assert.deepEqual(b.deletes, [{ region: 'north', orders: 1, total: 2 }]);
  assert.deepEqual(b.inserts, [{ region: 'north', orders: 1, total: 3 }]);
  changes.close();
  p.close();
});

test('through an index: upserts [{key, row}] and deletes [{key}]', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  const changes = p.egress('by_region', { index: 'by_region_idx', sendSnapshot: true });
  p.insert('customers', [{ id: 1, region: 'north' }]);
  p.insert('orders', [{ id: 1, customer: 1, amount: 2 }]);
  const snapshot = (await changes.next()).value;
  assert.deepEqual(snapshot.upserts, [{ key: { region: 'north' }, row: { region: 'north', orders: 1, total: 2 } }]);
  p.delete('orders', { id: 1 });
  const gone = (await changes.next()).value;
  assert.deepEqual(gone.upserts, []);
  assert.deepEqual(gone.deletes, [{ key: { region: 'north' } }]);
  changes.close();
  p.close();
});

test('for await with break, return() and close() release the stream', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  const changes = p.egress('by_region', { sendSnapshot: true });
  const id = changes.id;
  for await (const chunk of changes) {
    assert.equal(chunk.snapshot, true);
    break;
  }
  assert.equal(p.stats().egress[id], undefined);
  assert.deepEqual(await changes.next(), { done: true, value: undefined });
  const other = p.egress('by_region');
  const waiting = other.next();
  other.close();
  assert.deepEqual(await waiting, { done: true, value: undefined });
  assert.deepEqual(Object.keys(p.stats().egress), []);
  p.close();
});

test("onLag 'block': automatic steps wait for a full queue to drain; explicit steps still run", async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.insert('customers', { id: 1, region: 'north' });
  await tick(5);
  const changes = p.egress('by_region', { maxQueuedChunks: 2 });
  for (let i = 0; i < 4; ++i) {
    p.insert('orders', { id: i, customer: 1, amount: 1 });
    await tick(5);
  }
  assert.equal(p.stats().step, 3);   // one for customers, two until the queue held 2 chunks
  assert.equal(p.stats().egress[changes.id].queuedChunks, 2);
  p.step();                          // explicit: runs anyway
  assert.equal(p.stats().step, 4);
  for (let i = 0; i < 3; ++i) await changes.next();
  await tick(5);
  assert.equal(p.stats().egress[changes.id].queuedChunks, 0);
  p.insert('orders', { id: 9, customer: 1, amount: 1 });
  await tick(5);
  assert.equal(p.stats().step, 5);
  changes.close();
  p.close();
});

test("onLag 'coalesce': deltas merge, so a slow consumer still ends at the view's state", async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  p.insert('customers', [{ id: 1, region: 'north' }, { id: 2, region: 'south' }]);
  p.step();
  const changes = p.egress('by_region', { maxQueuedChunks: 2, onLag: 'coalesce' });
  for (let i = 0; i < 20; ++i) {
    p.insert('orders', { id: i % 3, customer: 1 + (i % 2), amount: i });
    p.step();
  }
  const state = new Map();
  const chunks = await drain(p, changes);
  assert.ok(chunks.length <= 2);
  for (const chunk of chunks) applyRows(state, chunk);
  assert.deepEqual(expand(state), bag(p.snapshot('by_region')));
  changes.close();
  p.close();
});

test("onLag 'drop': the oldest chunks go; the gap shows in sequence numbers and stats", async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  p.insert('customers', { id: 1, region: 'north' });
  p.step();
  const changes = p.egress('by_region', { maxQueuedChunks: 2, onLag: 'drop' });
  for (let i = 0; i < 5; ++i) {
    p.insert('orders', { id: i, customer: 1, amount: 1 });
    p.step();
  }
  assert.equal(p.stats().egress[changes.id].droppedChunks, 3);
  assert.deepEqual((await drain(p, changes)).map((chunk) => chunk.sequenceNumber), [3, 4]);
  changes.close();
  p.close();
});

test('close() ends every next() waiting at that moment', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  const changes = p.egress('by_region');
  const waiting = [changes.next(), changes.next()];
  changes.close();
  assert.deepEqual(await Promise.all(waiting), [{ done: true, value: undefined }, { done: true, value: undefined }]);
  p.close();
});
