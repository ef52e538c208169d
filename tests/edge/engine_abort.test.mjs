// The engine's failures at the edge, in real workerd:
//  - a replay at the object's start that aborts the wasm engine at its
//    first ingest (the
//    package's test-only abort, FRESHET_TEST_ABORT=replay, edge-worker/
//    test_abort.js) leaves the pipeline Stopped with an INTERNAL
//    deployment_error saying the way out; the next start does not try again
//    (no eviction loop: without the abort it would now resume and run); the
//    way out (/clear, then /start) works;
//  - a step past FRESHET_MAX_MEMORY_BYTES fails the view that grew with
//    OUT_OF_MEMORY, answered in Feldera's error shape; the other view and
//    the pipeline go on.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { edgeWorker, until } from './support.mjs';

const SQL = `CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR);
CREATE MATERIALIZED VIEW w AS SELECT * FROM t;
CREATE MATERIALIZED VIEW square AS SELECT a.id AS x, b.name AS y FROM t a, t b;`;

const rows = (from, count) => Array.from({ length: count }, (_, i) => ({ insert: { id: from + i, name: `row number ${from + i}` } }));

test('an abort while replaying the log at start: a pipeline error with the way out, not retried at the next start', async (t) => {
  const worker = await edgeWorker();
  t.after(() => worker.stop());
  assert.equal((await worker.call('PUT', 'p', { program_code: SQL, outputs: {}, checkpoint_interval_ms: 0 })).status, 201);
  const ingested = await worker.call('POST', 'p/ingress/t', rows(0, 3));  // logged; no checkpoint: the restart replays it
  assert.equal(ingested.status, 200, JSON.stringify(ingested.body));
  await until(async () => (await worker.call('GET', 'p/query?sql=SELECT COUNT(*) AS n FROM w')).body?.[0]?.n === 3, { what: 'the step' });

  await worker.restart({ vars: { FRESHET_TEST_ABORT: 'replay' } });
  const described = (await worker.call('GET', 'p')).body;
  assert.equal(described.deployment_status, 'Stopped');
  assert.equal(described.deployment_error?.error_code, 'INTERNAL', JSON.stringify(described.deployment_error));
  assert.match(described.deployment_error.message,
               /could not resume .*the engine stopped .*POST \/v0\/pipelines\/p\/clear, then POST \/v0\/pipelines\/p\/start/);

  // Not tried again at the next start: without the abort a retry would now succeed and run.
  await worker.restart({ vars: {} });
  const again = (await worker.call('GET', 'p')).body;
  assert.equal(again.deployment_status, 'Stopped');
  assert.deepEqual(again.deployment_error, described.deployment_error);

  // The way out.
  assert.equal((await worker.call('POST', 'p/clear')).status, 202);
  assert.equal((await worker.call('POST', 'p/start')).status, 202);
  assert.equal((await worker.call('POST', 'p/ingress/t', rows(10, 2))).status, 200);
  await until(async () => (await worker.call('GET', 'p/query?sql=SELECT COUNT(*) AS n FROM w')).body?.[0]?.n === 2, { what: 'a step afresh' });
});

test('a step past FRESHET_MAX_MEMORY_BYTES: the view that grew fails with OUT_OF_MEMORY in Feldera\'s error shape, naming the operator; the rest goes on', async (t) => {
  const worker = await edgeWorker({ vars: { FRESHET_MAX_MEMORY_BYTES: String(4 * 1024 * 1024) } });
  t.after(() => worker.stop());
  assert.equal((await worker.call('PUT', 'big', { program_code: SQL, outputs: {} })).status, 201);
  assert.equal((await worker.call('GET', 'big/stats')).body.memory_budget_bytes, 4 * 1024 * 1024);
  assert.equal((await worker.call('POST', 'big/ingress/t', rows(0, 1000))).status, 200);  // 10^6 rows of square
  let answer;
  await until(async () => (answer = await worker.call('GET', 'big/query?sql=SELECT COUNT(*) AS n FROM square')).status !== 200,
              { what: 'the step to fail the view' });
  // A failed view: 503 with its own error code (edge-worker/http_errors.js).
  assert.equal(answer.status, 503, JSON.stringify(answer.body));
  assert.equal(answer.body.error_code, 'OUT_OF_MEMORY');
  assert.deepEqual(Object.keys(answer.body).sort(), ['details', 'error_code', 'message']);
  assert.equal(answer.body.details.view, 'square');
  assert.match(answer.body.message, /view 'square' failed at step \d+: join: the step would pass the pipeline's memory budget of 4 MiB/);
  const stats = (await worker.call('GET', 'big/stats')).body;
  assert.equal(stats.views.square.failed.code, 'OUT_OF_MEMORY');
  assert.equal(stats.views.w.failed, null);
  // The pipeline runs on: ingress is taken and the other view steps under the budget.
  assert.equal((await worker.call('GET', 'big')).body.deployment_status, 'Running');
  assert.equal((await worker.call('POST', 'big/ingress/t', rows(2000, 1))).status, 200);
  await until(async () => (await worker.call('GET', 'big/query?sql=SELECT COUNT(*) AS n FROM w')).body?.[0]?.n === 1001,
              { what: 'the other view to step' });
});
