// A runtime error fails one view and the views that read it, not the
// pipeline: stats().views[name].failed, its egress streams end with the
// FreshetError, snapshot/query throw it, its connectors stop; the other
// views step on. A checkpoint, and the replay of the input log, keep the
// same views failed.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FreshetError, MapSink, MemoryStorage, Pipeline, callbackSink } from 'freshet';

// ratio divides by t's row count: 0 while t is empty.
const SQL = `
CREATE TABLE t (x INT);
CREATE TABLE u (y INT);
CREATE MATERIALIZED VIEW ratio AS SELECT 36 / COUNT(*) AS r FROM t;
CREATE MATERIALIZED VIEW doubled AS SELECT r * 2 AS d FROM ratio;
CREATE MATERIALIZED VIEW u_big AS SELECT y FROM u WHERE y > 1;
`;
// The message names the expression that failed, and a view failed through
// a view it reads names that view.
const RATIO_ERROR = "view 'ratio' failed at step 0: map: division by zero in (36 / COUNT(*))";
const DOUBLED_ERROR = "view 'doubled' failed at step 0: map: division by zero in (36 / COUNT(*)) (in view 'ratio', which it reads)";

function isViewError(message, view) {
  return (error) => {
    assert.ok(error instanceof FreshetError, String(error));
    assert.equal(error.code, 'INVALID_ARGUMENT');
    assert.equal(error.message, message);
    assert.deepEqual({ ...error.details }, { view, step: 0, viewFailed: true });
    return true;
  };
}

function failedViews(p) {
  return Object.fromEntries(Object.entries(p.stats().views).map(([name, s]) => [name, s.failed]));
}

const EXPECTED_FAILED = {
  ratio: { code: 'INVALID_ARGUMENT', message: RATIO_ERROR, step: 0 },
  doubled: { code: 'INVALID_ARGUMENT', message: DOUBLED_ERROR, step: 0 },
  u_big: null,
};

test('a division by zero fails its view and its dependents; the others step on', async () => {
  const written = [];
  const p = await Pipeline.create({
    sql: SQL,
    outputs: { out: { view: 'doubled', sendSnapshot: true, sink: callbackSink((chunk) => written.push(chunk)) } },
  });
  const onRatio = p.egress('ratio', { sendSnapshot: true });
  const onBig = p.egress('u_big');
  p.insert('u', [{ y: 1 }, { y: 5 }]);
  await p.step();
  assert.deepEqual(failedViews(p), EXPECTED_FAILED);
  assert.equal(p.stats().failure, null);
  assert.equal(p.stats().outputs.out.failed.message, DOUBLED_ERROR);

  await assert.rejects(onRatio.next(), isViewError(RATIO_ERROR, 'ratio'));
  assert.throws(() => p.snapshot('ratio'), isViewError(RATIO_ERROR, 'ratio'));
  await assert.rejects(p.query('SELECT d FROM doubled'), isViewError(DOUBLED_ERROR, 'doubled'));
  await assert.rejects(p.resetOutput('out'), isViewError(DOUBLED_ERROR, 'doubled'));
  assert.deepEqual((await onBig.next()).value.inserts, [{ y: 5 }]);

  // Rows of t make the division fine, but a failed view stays failed; the others go on.
  await p.insert('t', [{ x: 1 }]);
  p.insert('u', [{ y: 7 }]);
  await p.step();
  assert.deepEqual(failedViews(p), EXPECTED_FAILED);
  assert.deepEqual((await onBig.next()).value.inserts, [{ y: 7 }]);
  assert.deepEqual(await p.query('SELECT y FROM u_big ORDER BY y'), [{ y: 5 }, { y: 7 }]);
  assert.deepEqual(written, []);
  await p.close();
});

test('a checkpoint keeps the views failed', async () => {
  const storage = new MemoryStorage();
  const p = await Pipeline.create({ sql: SQL, storage });
  p.insert('u', [{ y: 5 }]);
  await p.step();
  await p.close();  // a last checkpoint

  const q = await Pipeline.create({ sql: SQL, storage });
  assert.deepEqual(failedViews(q), EXPECTED_FAILED);
  assert.throws(() => q.snapshot('doubled'), isViewError(DOUBLED_ERROR, 'doubled'));
  await assert.rejects(q.egress('ratio', { sendSnapshot: true }).next(), isViewError(RATIO_ERROR, 'ratio'));
  q.insert('u', [{ y: 9 }]);
  await q.step();
  assert.deepEqual(q.snapshot('u_big'), [{ y: 5 }, { y: 9 }]);
  await q.close();
});

test("the input log's replay fails the same views at the same step", async () => {
  const storage = new MemoryStorage();
  const p = await Pipeline.create({ sql: SQL, storage, durability: 'log' });
  await p.insert('u', [{ y: 5 }]);
  await p.step();
  await p.insert('t', [{ x: 2 }]);
  await p.step();
  const before = p.snapshot('u_big');
  const steps = p.stats().step;
  await p.close({ checkpoint: false });  // what followed the last checkpoint is only in the log

  const q = await Pipeline.create({ sql: SQL, storage, durability: 'log' });
  assert.equal(q.stats().step, steps);
  assert.deepEqual(failedViews(q), EXPECTED_FAILED);
  assert.deepEqual(q.snapshot('u_big'), before);
  await q.close();
});

test('a connector reset waiting for the snapshot of a view that fails meanwhile fails with its error', async () => {
  const p = await Pipeline.create({ sql: SQL, outputs: { out: { view: 'ratio', sink: new MapSink() } } });
  await p.insert('t', [{ x: 1 }]);
  await p.step();
  assert.equal(p.stats().views.ratio.failed, null);
  p.pause();
  p.delete('t', { x: 1 });  // the reset's step divides by zero
  const reset = p.resetOutput('out');
  const hung = new Promise((_, reject) => setTimeout(() => reject(new Error('the reset still waits')), 2000).unref());
  await assert.rejects(Promise.race([reset, hung]), (error) => {
    assert.equal(error.code, 'INVALID_ARGUMENT');
    assert.match(error.message, /^view 'ratio' failed at step 1: map: division by zero in \(36 \/ COUNT\(\*\)\)$/);
    return true;
  });
  await p.close();
});
