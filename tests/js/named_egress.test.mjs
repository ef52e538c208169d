// Named egress in the package: p.egress(view, { name, resumeFrom }) continues
// with chunk resumeFrom + 1 (no snapshot again, no gap, no duplicate) after a
// consumer lost chunks in flight — 100 seeded runs of random drops, checked
// against p.snapshot() — also in a new Pipeline resumed from a checkpoint;
// past the retention, RESUME_UNAVAILABLE; closeEgress.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FreshetError, MemoryStorage, Pipeline } from 'freshet';

import { ORDERS_SQL, bag, random, seed } from './support.mjs';

const CUSTOMERS = [{ id: 1, region: 'north' }, { id: 2, region: 'south' }, { id: 3, region: 'east' }];

/** A consumer's copy of a view: rows by JSON text, counted. */
class Copy {
  rows = new Map();
  apply(chunk) {
    for (const row of chunk.deletes) this.#add(row, -1);
    for (const row of chunk.inserts) this.#add(row, +1);
  }
  #add(row, weight) {
    const key = bag([row])[0];
    const count = (this.rows.get(key) ?? 0) + weight;
    assert.ok(count >= 0, `a delete of an absent row ${key}`);
    if (count === 0) this.rows.delete(key);
    else this.rows.set(key, count);
  }
  sorted() {
    return [...this.rows].flatMap(([key, count]) => Array(count).fill(key)).sort();
  }
}

/** Takes the chunks queued for `stream` now. */
async function take(p, stream, most) {
  const chunks = [];
  while (chunks.length < most && p.stats().egress[stream.id]?.queuedChunks > 0) chunks.push((await stream.next()).value);
  return chunks;
}

async function ordersPipeline(options = {}) {
  const p = await Pipeline.create({ sql: ORDERS_SQL, ...options });
  p.pause();
  return p;
}

test('100 runs: a consumer that loses chunks at random points and resumes holds the view exactly', async () => {
  const base = seed('named egress random drops');
  let resumes = 0;
  for (let run = 0; run < 100; ++run) {
    const rng = random(base + run);
    const pick = (n) => Math.floor(rng() * n);
    const p = await ordersPipeline();
    p.insert('customers', CUSTOMERS);
    let stream = p.egress('by_region', { name: 'dash', sendSnapshot: true });
    let copy = new Copy();
    let last;  // the last sequence number the consumer holds
    let first = 0;  // the number of the stream's first chunk
    let nextId = 0;
    const live = new Set();
    for (let round = 0; round < 30; ++round) {
      const orders = Array.from({ length: 1 + pick(4) }, () => ({ id: nextId++, customer: 1 + pick(3), amount: pick(100) }));
      p.insert('orders', orders);
      const gone = pick(nextId);
      if (pick(3) === 0 && live.delete(gone)) p.delete('orders', { id: gone });
      for (const { id } of orders) live.add(id);
      await p.step();
      const chunks = await take(p, stream, pick(3));
      const received = pick(chunks.length + 1);  // the rest is lost in flight
      for (const chunk of chunks.slice(0, received)) {
        const expected = last === undefined ? first : last + 1;
        if (expected !== undefined) assert.equal(chunk.sequenceNumber, expected, 'no gap, no duplicate');
        copy.apply(chunk);
        last = chunk.sequenceNumber;
      }
      if (received < chunks.length || pick(6) === 0) {
        stream.close();  // a named egress lives on without its consumer
        if (last === undefined) {
          // Nothing received: start over (a fresh snapshot; numbers go on).
          stream = p.egress('by_region', { name: 'dash', sendSnapshot: true });
          copy = new Copy();
          first = undefined;  // whatever number it starts at
        } else {
          stream = p.egress('by_region', { name: 'dash', resumeFrom: last });
          ++resumes;
        }
      }
    }
    for (const chunk of await take(p, stream, Infinity)) {
      if (last !== undefined) assert.equal(chunk.sequenceNumber, last + 1);
      copy.apply(chunk);
      last = chunk.sequenceNumber;
    }
    assert.deepEqual(copy.sorted(), bag(p.snapshot('by_region')), `run ${run} (FRESHET_SEED=${base})`);
    p.close();
  }
  assert.ok(resumes > 300, `resumed ${resumes} times`);
});

test('a new Pipeline resumed from a checkpoint continues a named egress with the next chunk', async () => {
  const storage = new MemoryStorage();
  const p = await ordersPipeline({ storage });
  p.insert('customers', CUSTOMERS);
  const stream = p.egress('by_region', { name: 'dash', sendSnapshot: true });
  const copy = new Copy();
  p.insert('orders', [{ id: 1, customer: 1, amount: 10 }]);
  await p.step();
  const snapshot = (await stream.next()).value;
  assert.equal(snapshot.snapshot, true);
  copy.apply(snapshot);
  p.insert('orders', [{ id: 2, customer: 2, amount: 20 }]);
  await p.step();
  await p.checkpoint();
  const lost = (await stream.next()).value;  // taken after the checkpoint, lost with the process
  assert.equal(lost.sequenceNumber, 1);
  p.close();

  const q = await ordersPipeline({ storage });
  q.insert('orders', [{ id: 3, customer: 3, amount: 30 }]);
  await q.step();
  const resumed = q.egress('by_region', { name: 'dash', resumeFrom: snapshot.sequenceNumber });
  const chunks = await take(q, resumed, Infinity);
  assert.deepEqual(chunks.map((c) => [c.sequenceNumber, c.snapshot]), [[1, false], [2, false]], 'no snapshot again, no gap');
  for (const chunk of chunks) copy.apply(chunk);
  assert.deepEqual(copy.sorted(), bag(q.snapshot('by_region')));
  q.close();
});

test('past the retention, or for an egress never opened, resuming is RESUME_UNAVAILABLE', async () => {
  const p = await ordersPipeline();
  p.insert('customers', CUSTOMERS);
  const stream = p.egress('by_region', { name: 'dash', retention: { chunks: 2 } });
  for (let id = 0; id < 5; ++id) {
    p.insert('orders', [{ id, customer: 1 + (id % 3), amount: id }]);
    await p.step();
  }
  assert.deepEqual((await take(p, stream, Infinity)).map((c) => c.sequenceNumber), [0, 1, 2, 3, 4]);
  assert.throws(() => p.egress('by_region', { name: 'dash', resumeFrom: 1 }), (error) => {
    assert.ok(error instanceof FreshetError);
    assert.equal(error.code, 'RESUME_UNAVAILABLE');
    assert.match(error.message, /egress 'dash' cannot resume after chunk 1: it retains chunks from 3 on .*start again with a snapshot/);
    return true;
  });
  assert.throws(() => p.egress('by_region', { name: 'other', resumeFrom: 0 }), { code: 'RESUME_UNAVAILABLE' });
  assert.throws(() => p.egress('by_region', { name: 'dash', resumeFrom: -1 }), { code: 'INVALID_ARGUMENT' });
  const again = p.egress('by_region', { name: 'dash', resumeFrom: 2 });
  assert.deepEqual((await take(p, again, Infinity)).map((c) => c.sequenceNumber), [3, 4]);

  // Starting over: a fresh snapshot, numbers go on.
  const fresh = p.egress('by_region', { name: 'dash', sendSnapshot: true });
  await p.step();
  const [first] = await take(p, fresh, 1);
  assert.deepEqual([first.sequenceNumber, first.snapshot, first.snapshotComplete], [5, true, true]);
  assert.deepEqual(bag(first.inserts), bag(p.snapshot('by_region')));

  p.closeEgress('dash');
  assert.equal(p.stats().egress[fresh.id], undefined);
  assert.throws(() => p.closeEgress('dash'), { code: 'UNKNOWN_OUTPUT' });
  assert.throws(() => p.egress('by_region', { name: 'dash', resumeFrom: 5 }), { code: 'RESUME_UNAVAILABLE' });
  p.close();
});

test("with durability 'log', a crash after the checkpoint: replay makes the same chunks, and the consumer resumes after the last it took", async () => {
  const storage = new MemoryStorage();
  const p = await ordersPipeline({ storage, durability: 'log' });
  await p.insert('customers', CUSTOMERS);
  const stream = p.egress('by_region', { name: 'dash', sendSnapshot: true });
  await p.step();
  const copy = new Copy();
  const [snapshot] = await take(p, stream, 1);
  copy.apply(snapshot);
  await p.checkpoint();
  await p.insert('orders', [{ id: 1, customer: 1, amount: 10 }]);
  await p.step();
  const [taken] = await take(p, stream, 1);  // after the checkpoint: only the log has its input
  copy.apply(taken);
  await p.insert('orders', [{ id: 2, customer: 2, amount: 20 }, { id: 3, customer: 1, amount: 5 }]);
  await p.step();
  const [inFlight] = await take(p, stream, 1);  // lost in flight with the process
  const steps = p.stats().step;
  await p.close({ checkpoint: false });  // as a crash once the log is written: no last checkpoint

  const q = await ordersPipeline({ storage, durability: 'log' });
  assert.equal(q.stats().step, steps, 'the steps after the checkpoint were replayed');
  const resumed = q.egress('by_region', { name: 'dash', resumeFrom: taken.sequenceNumber });
  const chunks = await take(q, resumed, Infinity);
  assert.deepEqual(chunks, [inFlight], 'the replayed step made the same chunk, with the same number');
  copy.apply(chunks[0]);
  assert.deepEqual(copy.sorted(), bag(q.snapshot('by_region')));
  await q.close({ checkpoint: false });
});
