// A wasm abort is never anything but a FreshetError (engine_guard.js): the
// engine aborts (a test-only fault, armEngineAbort) in the middle of a step
// and of an ingest; the call throws FreshetError INTERNAL, every pipeline of
// the realm is failed with it (stats say so, further calls answer the same
// error), and a pipeline created again from its FileStorage loads a fresh
// engine and resumes from its checkpoint and durable log.
// Also maxMemoryBytes: validated, shown in stats(), and a step past it
// fails the view that grew with OUT_OF_MEMORY while the other view, and
// the other pipeline, answer on.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { FileStorage, FreshetError, Pipeline } from 'freshet';

import { armEngineAbort } from '../../wasm-bindings/js/engine_guard.js';
import { DURABLE_SQL, bag } from './support.mjs';

const rows = (from, count) => Array.from({ length: count }, (_, i) => ({ id: from + i, v: (from + i) % 3 }));

function assertStopped(error) {
  assert.ok(error instanceof FreshetError, `a FreshetError, not ${error?.constructor?.name}: ${error?.message}`);
  assert.equal(error.code, 'INTERNAL');
  assert.match(error.message, /the engine stopped .*re-create the pipeline/);
}

async function withDir(work) {
  const dir = mkdtempSync(join(tmpdir(), 'freshet-engine-abort-'));
  try {
    await work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const where of ['step', 'ingest']) {
  test(`an abort in the middle of ${where === 'step' ? 'a step' : 'an ingest'} is FreshetError INTERNAL; re-created from FileStorage it resumes from checkpoint + log`, async () => {
    await withDir(async (dir) => {
      const p = await Pipeline.create({ sql: DURABLE_SQL, storage: new FileStorage(dir), durability: 'log' });
      const other = await Pipeline.create({ sql: DURABLE_SQL });  // on the same wasm instance
      p.pause();
      await p.insert('t', rows(0, 10));
      await p.step();
      await p.checkpoint();
      await p.insert('t', rows(10, 5));  // after the checkpoint: in the log only
      await p.step();

      await armEngineAbort(where);
      let thrown;
      try {
        if (where === 'step') {
          await p.insert('t', rows(15, 1));
          await p.step();
        } else {
          await p.insert('t', rows(15, 1));
        }
      } catch (error) {
        thrown = error;
      }
      assertStopped(thrown);
      // Stats say so; every later call answers the same error; the other pipeline is failed too.
      assert.deepEqual(p.stats().failure, { code: 'INTERNAL', message: thrown.message });
      assert.throws(() => p.snapshot('all_rows'), (error) => error === thrown);
      await assert.rejects(p.insert('t', rows(20, 1)), (error) => error === thrown);
      assert.throws(() => other.snapshot('all_rows'), (error) => error === thrown);
      assert.deepEqual(other.stats().failure, { code: 'INTERNAL', message: thrown.message });
      await p.close();
      await other.close();

      // A fresh engine: the checkpoint's 10 rows and the log's 5 (the aborted input never became durable, or
      // never was stepped: either way not the last good step's).
      const again = await Pipeline.create({ sql: DURABLE_SQL, storage: new FileStorage(dir), durability: 'log' });
      const ids = again.snapshot('all_rows').map((row) => row.id).sort((a, b) => a - b);
      assert.deepEqual(ids.filter((id) => id < 15), Array.from({ length: 15 }, (_, i) => i));
      assert.equal(again.stats().failure, null);
      await again.insert('t', rows(100, 1));
      await again.step();
      assert.ok(again.snapshot('all_rows').some((row) => row.id === 100), 'the fresh engine steps');
      await again.close();
    });
  });
}

test('maxMemoryBytes: validated, shown in stats(), a step past it fails the view that grew with OUT_OF_MEMORY naming the operator', async () => {
  for (const bad of [-1, 1.5, 'big', 2 ** 33]) {
    await assert.rejects(Pipeline.create({ sql: DURABLE_SQL, maxMemoryBytes: bad }), { code: 'INVALID_ARGUMENT' });
  }
  const byDefault = await Pipeline.create({ sql: DURABLE_SQL });
  assert.ok(byDefault.stats().memoryBudgetBytes > 0, 'a budget by default');
  await byDefault.close();

  const sql = `CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR);
    CREATE MATERIALIZED VIEW w AS SELECT * FROM t;
    CREATE MATERIALIZED VIEW square AS SELECT a.id AS x, b.name AS y FROM t a, t b;`;
  const p = await Pipeline.create({ sql, maxMemoryBytes: 4 * 1024 * 1024 });
  const other = await Pipeline.create({ sql, maxMemoryBytes: 0 });
  assert.equal(p.stats().memoryBudgetBytes, 4 * 1024 * 1024);
  p.pause();
  p.insert('t', Array.from({ length: 1000 }, (_, id) => ({ id, name: `row number ${id}` })));
  p.step();  // the step succeeds for w; square failed in it
  const failed = p.stats().views.square.failed;
  assert.equal(failed.code, 'OUT_OF_MEMORY');
  assert.match(failed.message, /view 'square' failed at step 0: join: the step would pass the pipeline's memory budget of 4 MiB \(the state holds [\d.]+ \w+; the step had built [\d.]+ MiB when it was stopped\)/);
  assert.throws(() => p.snapshot('square'), (error) => error instanceof FreshetError && error.code === 'OUT_OF_MEMORY');
  assert.equal(p.stats().failure, null);
  assert.equal(p.stats().views.w.failed, null);
  assert.equal(p.snapshot('w').length, 1000);
  assert.ok(p.stats().memoryBytes < 4 * 1024 * 1024, `the state stays within the budget: ${p.stats().memoryBytes}`);
  // The other view steps on under the budget.
  p.insert('t', [{ id: 5000, name: 'one more' }]);
  p.step();
  assert.equal(p.snapshot('w').length, 1001);
  // Not a trap: the engine runs on for the other pipeline.
  other.insert('t', [{ id: 1, name: 'x' }]);
  other.step();
  assert.deepEqual(bag(other.snapshot('w')), bag([{ id: 1, name: 'x' }]));
  await p.close();
  await other.close();
});
