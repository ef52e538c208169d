// The engine's failures at the edge, in real workerd:
//  - a replay at the object's start that aborts the wasm engine at its
//    first ingest (the
//    package's test-only abort, FRESHET_TEST_ABORT=replay, edge-worker/
//    test_abort.js) leaves the pipeline Stopped with an INTERNAL
//    deployment_error saying the way out; the next start does not try again
//    (no eviction loop: without the abort it would now resume and run); the
//    way out (/clear, then /start) works;
//  - a step past FRESHET_MAX_MEMORY_BYTES fails the pipeline with
//    OUT_OF_MEMORY, answered in Feldera's error shape.
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

test('a step past FRESHET_MAX_MEMORY_BYTES: OUT_OF_MEMORY in Feldera\'s error shape, naming the operator', async (t) => {
  const worker = await edgeWorker({ vars: { FRESHET_MAX_MEMORY_BYTES: String(4 * 1024 * 1024) } });
  t.after(() => worker.stop());
  assert.equal((await worker.call('PUT', 'big', { program_code: SQL, outputs: {} })).status, 201);
  assert.equal((await worker.call('GET', 'big/stats')).body.memory_budget_bytes, 4 * 1024 * 1024);
  assert.equal((await worker.call('POST', 'big/ingress/t', rows(0, 1000))).status, 200);  // 10^6 rows of square
  let answer;
  await until(async () => (answer = await worker.call('GET', 'big/query?sql=SELECT COUNT(*) AS n FROM w')).status !== 200,
              { what: 'the step to fail' });
  // 507: a bound of the server's (not a bad request: 4xx), and not transient (503 would invite a retry).
  assert.equal(answer.status, 507, JSON.stringify(answer.body));
  assert.equal(answer.body.error_code, 'OUT_OF_MEMORY');
  assert.deepEqual(Object.keys(answer.body).sort(), ['details', 'error_code', 'message']);
  assert.match(answer.body.message, /join: the step would pass the pipeline's memory budget of 4 MiB/);
  const described = (await worker.call('GET', 'big')).body;
  assert.equal(described.deployment_error?.error_code, 'OUT_OF_MEMORY');
  // Ingress into the failed pipeline: refused, with the step's error as the cause.
  const refused = await worker.call('POST', 'big/ingress/t', rows(2000, 1));
  assert.equal(refused.status, 503);
  assert.equal(refused.body.error_code, 'PIPELINE_FAILED');
  assert.match(refused.body.message, /OUT_OF_MEMORY: .*memory budget of 4 MiB/);
});
