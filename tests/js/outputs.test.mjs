// Output connectors: sinks (sync, async, throwing), MapSink, callbackSink,
// removeOutput, resetOutput, and the completion tokens they hold up.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MapSink, Pipeline, callbackSink } from 'freshet';

import { ORDERS_SQL, bag, random, seed, tick, until } from './support.mjs';

test('outputs given to create get the snapshot, then deltas, in a MapSink', async () => {
  const sink = new MapSink();
  const byKey = new MapSink();
  const p = await Pipeline.create({
    sql: ORDERS_SQL,
    outputs: {
      rows: { view: 'by_region', sendSnapshot: true, sink },
      keyed: { view: 'by_region', index: 'by_region_idx', sendSnapshot: true, sink: byKey },
    },
  });
  p.insert('customers', [{ id: 1, region: 'north' }, { id: 2, region: 'south' }]);
  const token = p.insert('orders', [{ id: 1, customer: 1, amount: 5 }, { id: 2, customer: 2, amount: 6 }]);
  await p.waitForCompletion(token);
  assert.deepEqual(bag(sink.rows()), bag(p.snapshot('by_region')));
  assert.deepEqual(byKey.get({ region: 'south' }), { region: 'south', orders: 1, total: 6 });
  assert.equal(byKey.size, 2);
  await p.waitForCompletion(p.delete('orders', { id: 2 }));
  assert.equal(byKey.get({ region: 'south' }), undefined);
  assert.deepEqual(sink.rows(), [{ region: 'north', orders: 1, total: 5 }]);
  const stats = p.stats().outputs.rows;
  assert.equal(stats.view, 'by_region');
  assert.equal(stats.snapshotSent, true);
  assert.equal(stats.transmittedBatches, 2);
  assert.equal(stats.errors, 0);
  p.close();
});

test('callbackSink gets chunks in order; an async write is awaited before the next one', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  const seen = [];
  let busy = false;
  p.addOutput('log', {
    view: 'by_region',
    sink: callbackSink(async (chunk) => {
      assert.equal(busy, false, 'two writes at once');
      busy = true;
      await tick(2);
      seen.push(chunk.sequenceNumber);
      busy = false;
    }),
  });
  p.insert('customers', { id: 1, region: 'north' });
  let token;
  for (let i = 0; i < 5; ++i) {
    token = p.insert('orders', { id: i, customer: 1, amount: i });
    p.step();
  }
  await p.waitForCompletion(token);
  assert.deepEqual(seen, [0, 1, 2, 3, 4]);
  p.close();
});

test('a sink that throws or rejects loses nothing: writes are retried, in order, and counted as errors', async () => {
  const rng = random(seed('throwing sink'));
  // attempts: 1 turns the storage/sink retries off (storage_faults.test.mjs tests
  // them): every failure reaches the connector's own retry and its error count.
  const p = await Pipeline.create({ sql: ORDERS_SQL, storageRetry: { attempts: 1 } });
  const mirror = new MapSink();
  let failures = 0;
  p.addOutput('flaky', {
    view: 'by_region',
    sendSnapshot: true,
    sink: {
      write(chunk) {
        const roll = rng();
        if (roll < 0.3) {
          ++failures;
          throw new Error('sync failure');
        }
        if (roll < 0.5) {
          ++failures;
          return Promise.reject(new Error('async failure'));
        }
        mirror.write(chunk);
        return roll < 0.75 ? tick(1) : undefined;
      },
    },
  });
  let token;
  for (let i = 0; i < 40; ++i) {
    p.insert('customers', { id: i % 5, region: `r${i % 3}` });
    token = p.insert('orders', { id: i % 7, customer: i % 5, amount: i });
    if (i % 3 === 0) p.step();
    else await tick(1);
  }
  await p.waitForCompletion(token);
  assert.ok(failures > 0);
  assert.deepEqual(bag(mirror.rows()), bag(p.snapshot('by_region')));
  const stats = p.stats().outputs.flaky;
  assert.equal(stats.errors, failures);
  assert.match(stats.lastError, /failure/);
  assert.equal(stats.queuedRecords, 0);
  p.close();
});

test('resetOutput wipes the sink and resolves once a fresh snapshot is written, also while paused', async () => {
  const sink = new MapSink();
  let resets = 0;
  const counting = { write: (chunk) => sink.write(chunk), reset: () => (++resets, sink.reset()), describe: () => sink.describe() };
  const p = await Pipeline.create({ sql: ORDERS_SQL, outputs: { dash: { view: 'by_region', sink: counting } } });
  p.insert('customers', { id: 1, region: 'north' });
  await p.waitForCompletion(p.insert('orders', { id: 1, customer: 1, amount: 4 }));
  sink.write({ inserts: [{ region: 'bogus', orders: 0, total: 0 }], deletes: [] });  // drift
  p.pause();
  await p.resetOutput('dash');
  assert.equal(resets, 1);
  assert.deepEqual(sink.rows(), [{ region: 'north', orders: 1, total: 4 }]);
  const stats = p.stats().outputs.dash;
  assert.equal(stats.resets, 1);
  assert.equal(stats.resetInProgress, false);
  assert.equal(stats.snapshotRecords, 1);
  p.close();
});

test('resetOutput retries a reset() that fails, then writes the snapshot', async () => {
  const sink = new MapSink();
  let attempts = 0;
  const p = await Pipeline.create({ sql: ORDERS_SQL, storageRetry: { attempts: 1 } });
  p.addOutput('dash', {
    view: 'by_region',
    sink: { write: (chunk) => sink.write(chunk), reset: () => { if (++attempts < 3) throw new Error('not yet'); sink.reset(); } },
  });
  p.insert('customers', { id: 1, region: 'north' });
  await p.waitForCompletion(p.insert('orders', { id: 1, customer: 1, amount: 4 }));
  await p.resetOutput('dash');
  assert.equal(attempts, 3);
  assert.deepEqual(sink.rows(), [{ region: 'north', orders: 1, total: 4 }]);
  assert.equal(p.stats().outputs.dash.errors, 2);
  p.close();
});

test('a reset during a slow write abandons that write and leaves a consistent sink', async () => {
  const sink = new MapSink();
  let release;
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.addOutput('dash', {
    view: 'by_region',
    sink: {
      write: async (chunk) => {
        if (!chunk.snapshot) await new Promise((resolve) => (release = resolve));
        sink.write(chunk);
      },
      reset: () => sink.reset(),
    },
  });
  p.insert('customers', { id: 1, region: 'north' });
  p.insert('orders', { id: 1, customer: 1, amount: 4 });
  await until(() => release);
  const reset = p.resetOutput('dash');
  release();
  await reset;
  assert.deepEqual(sink.rows(), [{ region: 'north', orders: 1, total: 4 }]);
  p.close();
});

test('removeOutput stops deliveries and no longer holds completion back', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  let writes = 0;
  p.addOutput('stuck', { view: 'by_region', sink: { write: () => (++writes, new Promise(() => {})) } });
  p.insert('customers', { id: 1, region: 'north' });
  const token = p.insert('orders', { id: 1, customer: 1, amount: 4 });
  await until(() => writes === 1);
  assert.equal(p.completionStatus(token), 'inprogress');
  const done = p.waitForCompletion(token);
  p.removeOutput('stuck');
  await done;
  assert.equal(p.stats().outputs.stuck, undefined);
  p.close();
});

test("one step's chunks reach every connector whose view changed within one microtask, none reach the others", async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  const seen = { rows: [], keyed: [], big: [], again: [] };
  const sinkOf = (name) => callbackSink((chunk) => seen[name].push(chunk));
  p.addOutput('rows', { view: 'by_region', sink: sinkOf('rows') });
  p.addOutput('keyed', { view: 'by_region', index: 'by_region_idx', sink: sinkOf('keyed') });  // JSON text
  p.addOutput('big', { view: 'big', sink: sinkOf('big') });
  p.addOutput('again', { view: 'by_region', sink: sinkOf('again') });
  p.insert('customers', [{ id: 1, region: 'north' }]);
  p.insert('orders', [{ id: 1, customer: 1, amount: 500 }]);
  p.step();
  assert.deepEqual(Object.values(seen).map((chunks) => chunks.length), [0, 0, 0, 0]);  // never inside step()
  await null;
  assert.deepEqual(seen.rows.map((c) => c.inserts), [[{ region: 'north', orders: 1, total: 500 }]]);
  assert.deepEqual(seen.again.map((c) => c.inserts), seen.rows.map((c) => c.inserts));
  assert.deepEqual(seen.keyed.map((c) => c.upserts), [[{ key: { region: 'north' }, row: { region: 'north', orders: 1, total: 500 } }]]);
  assert.deepEqual(seen.big.map((c) => c.inserts), [[{ id: 1, customer: 1, amount: 500 }]]);
  p.insert('orders', [{ id: 2, customer: 1, amount: 5 }]);  // by_region changes, big does not
  p.step();
  await null;
  assert.deepEqual(Object.values(seen).map((chunks) => chunks.length), [2, 2, 1, 2]);
  assert.deepEqual(seen.rows[1].deletes, [{ region: 'north', orders: 1, total: 500 }]);
  assert.deepEqual(seen.rows[1].inserts, [{ region: 'north', orders: 2, total: 505 }]);
  p.close();
});

test('a removed output whose write settles later leaves a new output of the same name alone', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  let settle;
  p.addOutput('o', { view: 'by_region', sink: { write: () => new Promise((resolve) => (settle = resolve)) } });
  p.insert('customers', [{ id: 1, region: 'north' }]);
  p.insert('orders', [{ id: 1, customer: 1, amount: 5 }]);
  p.step();
  await until(() => settle);
  p.removeOutput('o');
  const chunks = [];
  p.addOutput('o', { view: 'by_region', sendSnapshot: true, sink: callbackSink((chunk) => chunks.push(chunk)) });
  p.step();
  await null;
  settle();  // the removed output's write: its acknowledgement goes nowhere
  p.insert('orders', [{ id: 2, customer: 1, amount: 6 }]);
  p.step();
  await tick();
  assert.deepEqual(chunks.map((c) => [c.snapshot, c.inserts]), [
    [true, [{ region: 'north', orders: 1, total: 5 }]],
    [false, [{ region: 'north', orders: 2, total: 11 }]],
  ]);
  assert.equal(p.stats().outputs.o.errors, 0);
  p.close();
});
