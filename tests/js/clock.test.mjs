// NOW() in the JS Pipeline: the settable clock, clockResolutionMs, the
// automatic step when a row leaves a temporal filter (temporalStepMs), a
// paused pipeline's clock, and a checkpoint keeping the clock.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MemoryStorage, Pipeline } from 'freshet';

import { until } from './support.mjs';

const SQL = `
CREATE TABLE e (id INT NOT NULL, ts TIMESTAMP);
CREATE MATERIALIZED VIEW live AS SELECT id FROM e WHERE ts > NOW();
CREATE MATERIALIZED VIEW stamp AS SELECT NOW() AS at FROM e WHERE id = 0;
`;
const T0 = Date.parse('2024-01-01T10:00:00Z');

/** A TIMESTAMP literal (UTC) for a time in milliseconds. */
function sqlTime(ms) {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '').replace(/\.000$/, '');
}

test('the clock option sets NOW(), rounded down to clockResolutionMs', async () => {
  let now = T0 + 1234;
  const p = await Pipeline.create({ sql: SQL, clock: () => now, clockResolutionMs: 1000 });
  p.pause();
  p.insert('e', [{ id: 0, ts: null }]);
  p.start();
  p.step();
  assert.equal(p.now, T0 + 1000);
  assert.deepEqual(p.snapshot('stamp'), [{ at: '2024-01-01 10:00:01' }]);
  now = T0 + 5999;
  p.step();
  assert.equal(p.now, T0 + 5000);
  assert.deepEqual(p.snapshot('stamp'), [{ at: '2024-01-01 10:00:05' }]);
  now = T0;  // behind the last step: held
  p.step();
  assert.equal(p.now, T0 + 5000);
  p.close();
});

test('a program without NOW() has no clock', async () => {
  const p = await Pipeline.create({ sql: 'CREATE TABLE t (x INT); CREATE VIEW v AS SELECT x FROM t;' });
  p.step();
  assert.equal(p.now, null);
  p.close();
});

test('bad clock options are refused', async () => {
  await assert.rejects(Pipeline.create({ sql: SQL, clockResolutionMs: 0 }), /clockResolutionMs/);
  await assert.rejects(Pipeline.create({ sql: SQL, temporalStepMs: -1 }), /temporalStepMs/);
  await assert.rejects(Pipeline.create({ sql: SQL, clock: 5 }), /clock is a function/);
});

test('a running pipeline steps by itself when a row leaves a temporal filter', async () => {
  const p = await Pipeline.create({ sql: SQL, clockResolutionMs: 1, temporalStepMs: 10 });
  // Row 1 leaves 1 s after the insert: room for a loaded machine's first step.
  const start = Date.now();
  p.insert('e', [{ id: 1, ts: sqlTime(start + 1000) }, { id: 2, ts: sqlTime(start + 60_000) }]);
  await until(() => p.stats().step >= 1);
  assert.deepEqual(p.snapshot('live').map((r) => r.id).sort(), [1, 2]);
  // No input: the timer steps once row 1's time has passed.
  await until(() => p.snapshot('live').length === 1, 5000);
  assert.deepEqual(p.snapshot('live'), [{ id: 2 }]);
  assert.ok(Date.now() - start >= 1000);
  p.close();
});

test('a paused pipeline does not step for the clock, and its clock does not move', async () => {
  let now = T0;
  const p = await Pipeline.create({ sql: SQL, clock: () => now, clockResolutionMs: 1, temporalStepMs: 5 });
  p.insert('e', [{ id: 1, ts: sqlTime(T0 + 20) }]);
  await until(() => p.stats().step >= 1);
  assert.equal(p.snapshot('live').length, 1);
  p.pause();
  now = T0 + 1000;
  await new Promise((resolve) => setTimeout(resolve, 60));
  const steps = p.stats().step;
  assert.equal(p.snapshot('live').length, 1);
  p.step();  // an explicit step while paused keeps the time of the pause
  assert.equal(p.now, T0);
  assert.equal(p.snapshot('live').length, 1);
  assert.equal(p.stats().step, steps + 1);
  p.start();  // running again: the clock moves on, and the row leaves
  await until(() => p.snapshot('live').length === 0, 3000);
  assert.equal(p.now, T0 + 1000);
  p.close();
});

test('a checkpoint keeps the clock; a host clock behind it is held', async () => {
  const storage = new MemoryStorage();
  let now = T0 + 10_000;
  const p = await Pipeline.create({ sql: SQL, storage, clock: () => now, clockResolutionMs: 1 });
  p.pause();
  p.insert('e', [{ id: 1, ts: sqlTime(T0 + 20_000) }, { id: 0, ts: null }]);
  p.step();
  await p.checkpoint();
  p.close();
  now = T0;  // the host clock went back
  const q = await Pipeline.create({ sql: SQL, storage, clock: () => now, clockResolutionMs: 1 });
  q.pause();
  assert.equal(q.now, T0 + 10_000);
  q.step();
  assert.equal(q.now, T0 + 10_000);
  assert.deepEqual(q.snapshot('live'), [{ id: 1 }]);
  assert.deepEqual(q.snapshot('stamp'), [{ at: '2024-01-01 10:00:10' }]);
  q.close();
});
