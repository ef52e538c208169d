// Feldera's pipeline lifecycle on the edge worker, on real workerd over HTTP:
// /start?initial=running|paused, /pause, /resume, /stop?force=true|false,
// /clear, /dismiss_error, the Stopped state (storage kept, ingress refused),
// and Feldera's error codes and statuses for transitions it refuses.
// Shapes and codes: Feldera's openapi.json (paths .../start, /pause,
// /resume, /stop, /clear, /dismiss_error: 202 accepted, 400 ErrorResponse;
// components.schemas CombinedStatus, StorageStatus) and
// crates/pipeline-manager/src/db/error.rs / runner/error.rs (error_code and
// status of PauseWhileNotProvisioned,
// StorageStatusImmutableUnlessStopped, InvalidStorageStatusTransition,
// CannotStartWithUndismissedError, InitialImmutableUnlessStopped,
// PipelineInteractionNotDeployed). The client's polling
// (python/feldera/rest/feldera_client.py) reads deployment_status,
// deployment_desired_status, deployment_error and storage_status.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { assertError, edgeWorker, until } from './support.mjs';

const SQL = 'CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, x BIGINT); CREATE MATERIALIZED VIEW v AS SELECT SUM(x) AS s, COUNT(*) AS n FROM t;';
const create = (name) => ({ name, program_code: SQL, runtime_config: {}, program_config: {}, description: '', tags: [], udf_rust: '', udf_toml: '' });

let edge;
before(async () => {
  edge = await edgeWorker();
});
after(() => edge?.stop());


const status = async (name) => (await edge.call('GET', `${name}?selector=status`)).body;
const rows = async (name) => (await edge.call('GET', `${name}/query?sql=SELECT * FROM v`)).body;
async function ingest(name, records) {
  const answer = await edge.call('POST', `${name}/ingress/t?update_format=raw&array=true`, records);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  await until(async () => (await edge.call('GET', `${name}/completion_status?token=${answer.body.token}`)).body.status === 'complete');
}

test('a stopped pipeline refuses ingress (503 PipelineInteractionNotDeployed), pause and resume (400)', async () => {
  assert.equal((await edge.call('PUT', 'life', create('life'))).status, 201);
  const refused = await edge.call('POST', 'life/ingress/t', '{"insert":{"id":1,"x":1}}');
  assertError(refused, 503, 'PipelineInteractionNotDeployed', /deployment status \(stopped\)/);
  assert.deepEqual(refused.body.details, { pipeline_name: 'life', status: 'Stopped', desired_status: 'Stopped' });
  for (const path of ['egress/v', 'query?sql=SELECT * FROM v', 'checkpoint', 'step']) {
    assert.equal((await edge.call(path.startsWith('query') ? 'GET' : 'POST', `life/${path}`)).body.error_code, 'PipelineInteractionNotDeployed', path);
  }
  assertError(await edge.call('POST', 'life/pause'), 400, 'PauseWhileNotProvisioned');
  assertError(await edge.call('POST', 'life/resume'), 400, 'ResumeWhileNotProvisioned');
  assertError(await edge.call('POST', 'life/start?initial=standby'), 400, 'InitialStandbyNotAllowed');
});

test('start?initial=paused, then resume; start again with the same initial is accepted, another is refused', async () => {
  const started = await edge.call('POST', 'life/start?initial=paused');
  assert.equal(started.status, 202);
  let now = await status('life');
  assert.deepEqual([now.deployment_status, now.deployment_desired_status, now.deployment_initial, now.storage_status,
                    now.deployment_resources_status, now.deployment_runtime_status], ['Paused', 'Paused', 'paused', 'InUse', 'Provisioned', 'Paused']);
  assert.equal((await edge.call('POST', 'life/start?initial=paused')).status, 202);
  assertError(await edge.call('POST', 'life/start?initial=running'), 400, 'InitialImmutableUnlessStopped');
  assert.equal((await edge.call('POST', 'life/resume')).status, 202);
  now = await status('life');
  assert.equal(now.deployment_status, 'Running');
  assertError(await edge.call('POST', 'life/clear'), 400, 'StorageStatusImmutableUnlessStopped', /fully stopped/);
});

test('stop?force=false checkpoints, then stops: storage kept, start resumes the state', async () => {
  await ingest('life', [{ id: 1, x: 10 }, { id: 2, x: 20 }]);
  assert.equal((await edge.call('POST', 'life/stop?force=false')).status, 202);
  const stopped = await status('life');
  assert.deepEqual([stopped.deployment_status, stopped.storage_status, stopped.deployment_error], ['Stopped', 'InUse', null]);
  assert.equal((await edge.call('POST', 'life/stop?force=true')).status, 202, 'stopping a stopped pipeline is accepted');
  // The Stopped state survives workerd restarting: nothing runs until /start.
  await edge.restart();
  assert.equal((await status('life')).deployment_status, 'Stopped');
  assert.equal((await edge.call('POST', 'life/start')).status, 202);
  assert.equal((await status('life')).deployment_status, 'Running');
  assert.deepEqual(await rows('life'), [{ s: 30, n: 2 }]);
});

test('stop?force=true does not checkpoint, but acknowledged input is in the log: start replays it', async () => {
  const sequence = async () => (await status('life')).checkpoint?.sequence_number;
  await edge.call('POST', 'life/checkpoint');
  const checkpointed = await sequence();
  await ingest('life', [{ id: 3, x: 5 }]);
  assert.deepEqual(await rows('life'), [{ s: 35, n: 3 }]);
  assert.equal((await edge.call('POST', 'life/stop?force=true')).status, 202);
  assert.equal((await edge.call('POST', 'life/start')).status, 202);
  assert.equal(await sequence(), checkpointed, 'no checkpoint was taken');
  assert.deepEqual(await rows('life'), [{ s: 35, n: 3 }], 'the checkpoint and the log after it');
});

test('clear drops the storage (Cleared); clearing again is InvalidStorageStatusTransition; start begins empty', async () => {
  assert.equal((await edge.call('POST', 'life/stop?force=false')).status, 202);
  assert.equal((await edge.call('POST', 'life/clear')).status, 202);
  assert.equal((await status('life')).storage_status, 'Cleared');
  assert.deepEqual((await (await edge.kv()).list({ prefix: 'pipelines/life/' })).keys, [], 'no checkpoint left in KV (from before the log)');
  assertError(await edge.call('POST', 'life/clear'), 400, 'InvalidStorageStatusTransition', /'Cleared' to 'Clearing'/);
  assert.equal((await edge.call('POST', 'life/start')).status, 202);
  assert.deepEqual(await rows('life'), [], 'nothing of the cleared state');
});

test('a failed step stops the pipeline with its deployment_error; dismiss_error clears it; start runs again', async () => {
  // A runtime error in the SQL fails only its view now (view_failure.test.mjs); what still
  // stops a pipeline is the engine itself failing: a wasm trap in a step, here the
  // package's test-only abort (FRESHET_TEST_ABORT=step: the first step after the object starts).
  await ingest('life', [{ id: 1, x: 1 }]);
  await edge.call('POST', 'life/checkpoint');
  await edge.restart({ vars: { FRESHET_TEST_ABORT: 'step' } });
  try {
    assert.equal((await edge.call('POST', 'life/ingress/t?update_format=raw', '{"id":8,"x":2}')).status, 200, 'acknowledged, then the step traps');
    const failed = await until(async () => {
      const now = await status('life');
      return now.deployment_error ? now : null;
    }, { what: 'the trap to stop the pipeline' });
    assert.deepEqual([failed.deployment_status, failed.deployment_desired_status, failed.deployment_error.error_code],
                     ['Stopped', 'Stopped', 'INTERNAL']);
    assertError(await edge.call('POST', 'life/start?dismiss_error=false'), 400, 'CannotStartWithUndismissedError');
    const dismissed = await edge.call('POST', 'life/dismiss_error');
    assert.equal(dismissed.status, 200);
    assert.equal((await status('life')).deployment_error, null);
    assert.equal((await edge.call('POST', 'life/start?dismiss_error=false')).status, 202);
    // A fresh engine, resumed from the checkpoint and the log: the acknowledged record is there.
    await until(async () => JSON.stringify(await rows('life')) === JSON.stringify([{ s: 3, n: 2 }]), { what: 'the logged record after the start' });
    assert.equal((await edge.call('POST', 'life/dismiss_error')).status, 200, 'nothing to dismiss: accepted');
  } finally {
    await edge.restart({ vars: {} });
  }
});

test('an unknown pipeline is 404 UnknownPipelineName on every transition', async () => {
  for (const path of ['start', 'stop?force=true', 'clear', 'dismiss_error']) {
    assertError(await edge.call('POST', `nobody/${path}`), 404, 'UnknownPipelineName');
  }
});
