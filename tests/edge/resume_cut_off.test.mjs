// The last guard against an eviction loop (edge-worker/resume_attempts.js),
// in real workerd: a resume that the host cuts off (here: a resume that
// hangs, FRESHET_TEST_ABORT=hang, and a kill -9 of workerd while it does)
// is tried again at the next start, but after MAX_RESUME_ATTEMPTS such
// deaths in a row the pipeline is Stopped with an error that says so and the
// way out, which works; a resume that ends resets the count.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { startEdgeWorker } from '../../edge-worker/local.mjs';
import { MAX_RESUME_ATTEMPTS } from '../../edge-worker/resume_attempts.js';
import { until } from './support.mjs';

// edge-worker/test_abort.js's TEST_HANG_KEY (that module loads the wasm engine: not importable from Node).
const TEST_HANG_KEY = 'test/resume_hanging';
const SQL = 'CREATE TABLE t (id BIGINT NOT NULL); CREATE MATERIALIZED VIEW n AS SELECT COUNT(*) AS n FROM t;';

async function call(worker, method, path, body) {
  const response = await fetch(`${worker.url}/v0/pipelines/${path}`, {
    method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

test(`${MAX_RESUME_ATTEMPTS} resumes cut off in a row: the pipeline is Stopped with the way out, not resumed for ever`, async (t) => {
  const persistDir = mkdtempSync(join(tmpdir(), 'freshet-cut-off-'));
  let worker = await startEdgeWorker({ persistDir });
  t.after(async () => {
    await worker.stop().catch(() => {});
    rmSync(persistDir, { recursive: true, force: true });
  });
  const restart = async (vars) => {
    process.kill(worker.workerdPid, 'SIGKILL');
    await worker.stop().catch(() => {});
    worker = await startEdgeWorker({ persistDir, vars });
  };
  assert.equal((await call(worker, 'PUT', 'loop', { program_code: SQL, outputs: {}, checkpoint_interval_ms: 0 })).status, 201);
  assert.equal((await call(worker, 'POST', 'loop/ingress/t', [{ insert: { id: 1 } }])).status, 200);

  // One resume cut off, then one that ends: the count starts again.
  const cutOff = async () => {
    await restart({ FRESHET_TEST_ABORT: 'hang' });
    const kv = await worker.mf.getKVNamespace('KV');
    await kv.delete(TEST_HANG_KEY);
    fetch(`${worker.url}/v0/pipelines/loop`).catch(() => {});  // wakes the object: its resume hangs
    await until(async () => (await kv.get(TEST_HANG_KEY)) !== null, { what: 'the resume to begin' });
  };
  await cutOff();
  await restart({});
  assert.equal((await call(worker, 'GET', 'loop')).body.deployment_status, 'Running');

  for (let i = 0; i < MAX_RESUME_ATTEMPTS; ++i) await cutOff();
  await restart({});
  const stopped = (await call(worker, 'GET', 'loop')).body;
  assert.equal(stopped.deployment_status, 'Stopped');
  assert.equal(stopped.deployment_error?.error_code, 'INTERNAL', JSON.stringify(stopped.deployment_error));
  assert.match(stopped.deployment_error.message, new RegExp(`the last ${MAX_RESUME_ATTEMPTS} resumes were cut off .*` +
    'POST /v0/pipelines/loop/clear, then POST /v0/pipelines/loop/start'));
  // Not tried again at the next start.
  await restart({});
  assert.equal((await call(worker, 'GET', 'loop')).body.deployment_status, 'Stopped');
  // The way out.
  assert.equal((await call(worker, 'POST', 'loop/clear')).status, 202);
  assert.equal((await call(worker, 'POST', 'loop/start')).status, 202);
  assert.equal((await call(worker, 'POST', 'loop/ingress/t', [{ insert: { id: 2 } }])).status, 200);
  await until(async () => (await call(worker, 'GET', 'loop/query?sql=SELECT n FROM n')).body?.[0]?.n === 1, { what: 'a start afresh' });
});
