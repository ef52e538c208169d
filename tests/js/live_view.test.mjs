// p.live(): the live view for UI code. After every step of a random run its
// rows equal p.snapshot(), its `changes` turn the last rows into the new ones
// object for object (so an unchanged row keeps its identity), and it
// notified once per step that changed the view; status transitions (empty
// view, paused, failed step, p.close(), close(), fresh snapshots); no leak
// after 10k subscribe/unsubscribe and open/close cycles.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';

import { Pipeline } from 'freshet';
import { LiveView } from '../../wasm-bindings/js/live_view.js';
import { RowsByValue } from '../../wasm-bindings/js/live_rows.js';

import { ORDERS_SQL, bag, openStreams, random, seed, tick } from './support.mjs';

const SQL = `${ORDERS_SQL}
CREATE TABLE events (kind VARCHAR, n INT);
CREATE MATERIALIZED VIEW big_orders AS SELECT id, customer, amount FROM orders WHERE amount > 50;
CREATE MATERIALIZED VIEW kinds AS SELECT kind, n FROM events WHERE n > 1;
CREATE MATERIALIZED VIEW empty_view AS SELECT * FROM orders WHERE amount < 0;`;

const keyText = (row, columns) => JSON.stringify(columns.map((column) => String(row[column])));

/** Object identities with counts. */
function identities(rows) {
  const counts = new Map();
  for (const row of rows) counts.set(row, (counts.get(row) ?? 0) + 1);
  return counts;
}

/**
 * Checks that `changes` turn `before` (the last `current`) into `after`
 * object for object: rows not deleted keep their objects.
 */
function assertChangesApply(before, after, changes, indexKey) {
  if (indexKey) {
    const byKey = new Map(before.map((row) => [keyText(row, indexKey), row]));
    for (const { key } of changes.deletes) assert.ok(byKey.delete(keyText(key, indexKey)), 'a delete of a key not held');
    for (const { key, row } of changes.upserts) byKey.set(keyText(key, indexKey), row);
    assert.deepEqual(identities(after), identities([...byKey.values()]));
    return;
  }
  const counts = identities(before);
  for (const row of changes.deletes) {
    assert.ok(counts.get(row) > 0, `deleted row ${JSON.stringify(row)} is not an object of the last rows`);
    counts.set(row, counts.get(row) - 1);
  }
  for (const row of changes.inserts) counts.set(row, (counts.get(row) ?? 0) + 1);
  for (const [row, count] of counts) if (count === 0) counts.delete(row);
  assert.deepEqual(identities(after), counts);
}

/** A live view with a count of the notifications since the last check. */
function follow(p, view, options) {
  const live = p.live(view, options);
  const follower = { view, options, live, notifications: 0, last: live.current, lastBag: null, ready: false };
  live.listen(() => ++follower.notifications);
  return follower;
}

function check(p, follower, where) {
  const { live, view, options } = follower;
  const expected = bag(p.snapshot(view));
  const rows = live.current;
  assert.equal(live.status, 'ready', where);
  assert.deepEqual(bag(rows), expected, `${where}: rows of ${view} ${JSON.stringify(options)}`);
  assert.ok(rows.every(Object.isFrozen) && Object.isFrozen(rows), where);
  const changed = follower.lastBag === null || follower.lastBag.join('\n') !== expected.join('\n');
  assert.equal(follower.notifications, changed ? 1 : 0, `${where}: notifications of ${view} ${JSON.stringify(options)}`);
  if (changed) {
    const indexKey = options?.index ? ['region'] : null;
    assertChangesApply(follower.last, rows, live.changes, indexKey);
    assert.equal(live.changes.step, p.stats().step - 1, where);
  } else {
    assert.equal(rows, follower.last, `${where}: current is cached while nothing changes`);
  }
  Object.assign(follower, { notifications: 0, last: rows, lastBag: expected });
}

test('oracle: after each of 320 random steps every live view equals p.snapshot(), its changes turn the last rows into the new ones', async () => {
  const rng = random(seed('live view oracle'));
  const pick = (n) => Math.floor(rng() * n);
  const p = await Pipeline.create({ sql: SQL });
  p.pause();
  const events = [];   // the events table's rows, to delete only rows it holds
  const followers = [];
  const join = () => followers.push(
    follow(p, 'by_region'), follow(p, 'by_region', { index: 'by_region_idx' }), follow(p, 'by_region', { key: 'region' }),
    follow(p, 'big_orders'), follow(p, 'big_orders', { key: ['id'] }), follow(p, 'kinds'), follow(p, 'empty_view'));
  join();
  for (let step = 0; step < 320; ++step) {
    // Customers move regions; orders come, change (upserts by primary key) and go; events repeat.
    for (let i = pick(3); i > 0; --i) p.ingest('customers', [{ insert: { id: pick(12), region: `r${pick(5)}` } }]);
    for (let i = pick(10); i > 0; --i) {
      p.ingest('orders', [rng() < 0.3 ? { delete: { id: pick(40) } } : { insert: { id: pick(40), customer: pick(12), amount: pick(100) } }]);
    }
    for (let i = pick(4); i > 0; --i) {
      if (events.length && rng() < 0.4) p.delete('events', events.splice(pick(events.length), 1));
      else events.push({ kind: `k${pick(3)}`, n: pick(4) }), p.insert('events', [events.at(-1)]);
    }
    if (step === 100 || step === 200) join();   // late joiners start from a snapshot
    p.step();
    await tick();
    for (const follower of followers) check(p, follower, `step ${step}`);
  }
  for (const { live } of followers) live.close();
  assert.deepEqual(p.stats().egress, {});
  p.close();
});

test('an empty view: loading at first, then ready with no rows after one notification', async () => {
  const p = await Pipeline.create({ sql: SQL });
  const live = p.live('empty_view');
  const seen = [];
  live.subscribe((rows) => seen.push([live.status, rows.length]));
  assert.deepEqual(seen, [['loading', 0]]);   // the store contract: called at once
  await tick();
  assert.deepEqual(seen, [['loading', 0], ['ready', 0]]);
  assert.equal(live.version, 1);
  assert.deepEqual(live.changes, { step: 0, inserts: [], deletes: [] });
  p.close();
});

test('a paused pipeline still delivers the snapshot (a forced step)', async () => {
  const p = await Pipeline.create({ sql: SQL });
  p.insert('orders', [{ id: 1, customer: 1, amount: 60 }]);
  p.pause();
  const live = p.live('big_orders', { key: 'id' });
  await tick();
  assert.equal(live.status, 'ready');
  assert.deepEqual(live.current, [{ id: 1, customer: 1, amount: 60 }]);
  p.close();
});

test('a failed view: status error with the view\'s error, the last rows stay', async () => {
  const p = await Pipeline.create({ sql: 'CREATE TABLE t (x INT); CREATE MATERIALIZED VIEW v AS SELECT 10 / x AS y FROM t;' });
  p.pause();
  const live = p.live('v');
  p.insert('t', [{ x: 2 }]);
  p.step();
  await tick();
  assert.deepEqual([live.status, live.current], ['ready', [{ y: 5 }]]);
  const version = live.version;
  p.insert('t', [{ x: 0 }]);
  p.step();  // fails the view, not the step
  const thrown = p.stats().views.v.failed;
  await tick();
  assert.equal(live.status, 'error');
  assert.equal(live.error.code, thrown.code);
  assert.equal(live.error.message, thrown.message);
  assert.equal(live.version, version + 1);
  assert.equal(live.changes, null);
  assert.deepEqual(live.current, [{ y: 5 }]);
  const late = p.live('v');   // on a pipeline that failed already
  await tick();
  assert.deepEqual([late.status, late.error?.code, late.current], ['error', thrown.code, []]);
  assert.deepEqual(p.stats().egress, {});
  p.close();
});

test('p.close(): status error CLOSED; p.live() on a closed pipeline throws CLOSED', async () => {
  const p = await Pipeline.create({ sql: SQL });
  const live = p.live('by_region');
  await tick();
  p.close();
  await tick();
  assert.deepEqual([live.status, live.error?.code], ['error', 'CLOSED']);
  assert.throws(() => p.live('by_region'), { code: 'CLOSED' });
  live.close();   // harmless
});

test('close(): ends the egress stream, no more notifications, the last rows and status stay', async () => {
  const p = await Pipeline.create({ sql: SQL });
  p.insert('orders', [{ id: 1, customer: 1, amount: 60 }]);
  const live = p.live('big_orders');
  let calls = 0;
  live.subscribe(() => ++calls);
  await tick();
  assert.equal(openStreams(p), 1);
  live.close();
  assert.deepEqual(p.stats().egress, {});
  p.insert('orders', [{ id: 2, customer: 1, amount: 70 }]);
  await tick(5);
  assert.deepEqual([calls, live.status, live.current.length], [2, 'ready', 1]);
  assert.equal(live.subscribe(() => ++calls)(), undefined);   // called at once, then never
  assert.equal(calls, 3);
  p.close();
});

test('wrong arguments fail at once with the error code that names them', async () => {
  const p = await Pipeline.create({ sql: SQL });
  assert.throws(() => p.live('nope'), { code: 'UNKNOWN_VIEW' });
  assert.throws(() => p.live('big'), { code: 'NOT_MATERIALIZED' });
  assert.throws(() => p.live('by_region', { index: 'nope' }), { code: 'UNKNOWN_INDEX' });
  assert.throws(() => p.live('by_region', { key: 'nope' }), { code: 'INVALID_ARGUMENT', message: /no column 'nope'/ });
  assert.throws(() => p.live('by_region', { key: [] }), { code: 'INVALID_ARGUMENT' });
  assert.throws(() => p.live('by_region', { index: 'by_region_idx', key: 'orders' }), { code: 'INVALID_ARGUMENT' });
  assert.throws(() => p.live('by_region', { sendSnapshot: false }), { code: 'INVALID_ARGUMENT', message: /sendSnapshot/ });
  assert.throws(() => p.live('by_region').subscribe(null), { code: 'INVALID_ARGUMENT' });
  assert.deepEqual(openStreams(p), 1);   // only the last one opened a stream
  p.close();
});

test('key columns that are not unique in the view: status error INVALID_ARGUMENT naming the key', async () => {
  const p = await Pipeline.create({ sql: SQL });
  p.insert('orders', [{ id: 1, customer: 7, amount: 60 }, { id: 2, customer: 7, amount: 70 }]);
  const live = p.live('big_orders', { key: 'customer' });
  await tick();
  assert.equal(live.status, 'error');
  assert.equal(live.error.code, 'INVALID_ARGUMENT');
  assert.match(live.error.message, /big_orders.*\(customer\) = \(7\)/);
  assert.deepEqual(p.stats().egress, {});   // the failed view let its stream go
  p.close();
});

test('a stream that loses chunks (drop policy) is followed by a fresh snapshot: loading, then ready and correct', async () => {
  const p = await Pipeline.create({ sql: SQL });
  p.pause();
  const open = () => p.egress('big_orders', { sendSnapshot: true, onLag: 'drop', maxQueuedChunks: 1 });
  const live = new LiveView('big_orders', open, () => new RowsByValue('big_orders'));
  const statuses = [];
  live.listen(() => statuses.push(live.status));
  p.insert('orders', [{ id: 1, customer: 1, amount: 60 }]);
  p.step();
  await tick();
  const kept = live.current[0];
  for (let id = 2; id < 6; ++id) {
    p.insert('orders', [{ id, customer: 1, amount: 60 + id }]);
    p.step();   // several steps before the view reads: the queue of one drops the older chunks
  }
  await tick(5);
  assert.deepEqual(statuses, ['ready', 'loading', 'ready']);
  assert.deepEqual(bag(live.current), bag(p.snapshot('big_orders')));
  assert.equal(live.current.find((row) => row.id === 1), kept, 'an unchanged row keeps its object across the fresh snapshot');
  assertChangesApply([kept], live.current, live.changes, null);
  live.close();
  p.close();
});

test('a program change: when the stream ends (as the edge worker\'s does when its pipeline is replaced) the view follows the new one', async () => {
  let p = await Pipeline.create({ sql: SQL });
  p.insert('orders', [{ id: 1, customer: 1, amount: 60 }, { id: 2, customer: 1, amount: 70 }]);
  // The edge worker's egress response ends its stream, without an error, when the pipeline closes for a replace.
  const open = () => {
    const stream = p.egress('big_orders', { sendSnapshot: true });
    return {
      next: () => stream.next().catch((error) => (error.code === 'CLOSED' ? { done: true } : Promise.reject(error))),
      close: () => stream.close(),
    };
  };
  const live = new LiveView('big_orders', open, () => new RowsByValue('big_orders'));
  await tick();
  const kept = live.current.find((row) => row.id === 1);
  const replaced = await Pipeline.create({ sql: SQL.replace('amount > 50', 'amount > 65') });
  replaced.insert('orders', [{ id: 1, customer: 1, amount: 60 }, { id: 3, customer: 1, amount: 80 }]);
  const statuses = [];
  live.listen(() => statuses.push(live.status));
  const old = p;
  p = replaced;
  old.close();
  await tick(5);
  assert.deepEqual(statuses, ['loading', 'ready']);
  assert.deepEqual(bag(live.current), bag(p.snapshot('big_orders')));
  assert.deepEqual(live.changes.deletes, [kept, { id: 2, customer: 1, amount: 70 }]);
  assert.deepEqual(live.changes.inserts, [{ id: 3, customer: 1, amount: 80 }]);
  live.close();
  p.close();
});

test('a stream that ends before its snapshot is complete fails the view instead of reconnecting forever', async () => {
  const p = await Pipeline.create({ sql: SQL });
  let opened = 0;
  const open = () => {
    ++opened;
    const stream = p.egress('big_orders', { sendSnapshot: true });
    stream.close();
    return stream;
  };
  const live = new LiveView('big_orders', open, () => new RowsByValue('big_orders'));
  await tick(5);
  assert.deepEqual([live.status, live.error?.code, opened], ['error', 'INTERNAL', 1]);
  assert.match(live.error.message, /big_orders.*ended before its snapshot was complete/);
  p.close();
});

test('a fresh snapshot inside the stream (as a reset sends): loading, then the new state, unchanged rows keep their objects', async () => {
  const p = await Pipeline.create({ sql: SQL });
  p.pause();
  p.insert('orders', [{ id: 1, customer: 1, amount: 60 }, { id: 2, customer: 1, amount: 70 }]);
  // One stream whose consumer is sent a fresh snapshot: the chunks of a first egress, then those of a
  // second one opened later with its own snapshot, numbered on (the core's reset of an endpoint does so).
  let first = p.egress('big_orders', { sendSnapshot: true });
  let second = null;
  let sequence = 0;
  const stream = {
    async next() {
      for (;;) {
        const source = second ?? first;
        const result = await source.next();
        if (result.done && source === first && second) continue;   // the first egress ended: go on with the second
        return result.done ? result : { done: false, value: { ...result.value, sequenceNumber: sequence++ } };
      }
    },
    close: () => (second ?? first).close(),
  };
  const live = new LiveView('big_orders', () => stream, () => new RowsByValue('big_orders'));
  await tick();
  const kept = live.current.find((row) => row.id === 1);
  const statuses = [];
  live.listen(() => statuses.push(live.status));
  first.close();
  second = p.egress('big_orders', { sendSnapshot: true });
  p.insert('orders', [{ id: 2, customer: 1, amount: 75 }, { id: 3, customer: 1, amount: 80 }]);
  await tick(5);
  assert.deepEqual(statuses, ['loading', 'ready']);
  assert.deepEqual(bag(live.current), bag(p.snapshot('big_orders')));
  assert.equal(live.current.find((row) => row.id === 1), kept);
  assert.deepEqual(live.changes.deletes, [{ id: 2, customer: 1, amount: 70 }]);
  assert.deepEqual(bag(live.changes.inserts), bag([{ id: 2, customer: 1, amount: 75 }, { id: 3, customer: 1, amount: 80 }]));
  p.insert('orders', [{ id: 4, customer: 1, amount: 90 }]);
  p.step();
  await tick();
  assert.deepEqual(live.changes.inserts, [{ id: 4, customer: 1, amount: 90 }]);
  assert.deepEqual(bag(live.current), bag(p.snapshot('big_orders')));
  live.close();
  p.close();
});

test('no leak: 10k subscribe/unsubscribe cycles and 10k live views opened and closed', async () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  const heap = () => (gc(), gc(), process.memoryUsage().heapUsed);
  const p = await Pipeline.create({ sql: SQL });
  p.insert('orders', Array.from({ length: 100 }, (_, id) => ({ id, customer: id % 7, amount: 51 + id })));
  const live = p.live('big_orders');
  await tick();
  const engineBytes = p.stats().memoryBytes;
  let calls = 0;
  const cycles = async (count) => {
    for (let i = 0; i < count; ++i) {
      live.subscribe(() => ++calls)();
      live.listen(() => ++calls)();
      const other = p.live('big_orders', i % 2 ? { key: 'id' } : {});
      other.subscribe(() => ++calls)();
      other.close();
      if (i % 1000 === 0) await tick();   // some reach ready before they close
    }
    p.insert('orders', [{ id: 1000 + calls, customer: 1, amount: 99 }]);   // a step settles what waited for one
    await tick(5);
  };
  await cycles(2000);   // warm up (compiled code, the engine's pools)
  calls = 0;
  // A leak grows with every cycle; the heap's own noise (code, feedback) comes and goes: the smaller of two rounds' growth.
  let grown = Infinity;
  for (let round = 0; round < 2; ++round) {
    const heapBefore = heap();
    await cycles(5000);
    grown = Math.min(grown, heap() - heapBefore);
    console.log(`[ heap ] 5000 cycles: ${grown} bytes`);
  }
  assert.equal(calls, 20_000, 'each subscribe called its listener at once, and nothing after: no unsubscribed listener runs');
  assert.deepEqual(openStreams(p), 1, 'only the open live view holds a stream');
  assert.ok(grown < 1024 * 1024, `the JS heap grew by ${grown} bytes`);
  assert.ok(p.stats().memoryBytes < engineBytes + 64 * 1024, `engine memory ${engineBytes} → ${p.stats().memoryBytes}`);
  assert.deepEqual(bag(live.current), bag(p.snapshot('big_orders')));
  live.close();
  p.close();
});

test('a mirror by value keeps its rows, their order and their objects across thousands of replaced rows', () => {
  // Every change replaces one of 20 rows: the mirror's Map is renewed now and
  // then (live_rows.js, RowsByValue#renew), which must change nothing a UI sees.
  const mirror = new RowsByValue('v');
  const rowOf = (slot, version) => ({ slot, version });
  let expected = Array.from({ length: 20 }, (_, slot) => rowOf(slot, 0));
  mirror.apply({ inserts: expected, deletes: [] });
  const objects = new Map(mirror.rows().map((row) => [row.slot, row]));
  for (let change = 1; change <= 3000; ++change) {
    const slot = (change * 7) % 20;
    const old = expected.find((row) => row.slot === slot);
    const row = rowOf(slot, change);
    const { inserts, deletes } = mirror.apply({ inserts: [row], deletes: [{ ...old }] });
    assert.equal(deletes[0], objects.get(slot));
    assert.equal(inserts[0], row);
    objects.set(slot, row);
    expected = [...expected.filter((r) => r !== old), row];   // a new row goes last, as a new Map entry does
    assert.deepEqual(mirror.rows(), expected, `change ${change}`);
  }
  for (const row of mirror.rows()) assert.equal(row, objects.get(row.slot));
});
