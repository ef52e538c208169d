// Feldera's statistics routes on real workerd over HTTP:
//   GET  .../stats                               ControllerStatus
//   GET  .../tables/{t}/connectors/{c}/stats     InputEndpointStatus
//   GET  .../views/{v}/connectors/{c}/stats      OutputEndpointStatus
//   POST .../checkpoint, GET .../checkpoint_status   CheckpointResponse, CheckpointStatus
// The shapes are Feldera's: the required fields below are copied from its
// OpenAPI document (openapi.json, components.schemas.GlobalControllerMetrics,
// InputEndpointStatus, InputEndpointMetrics, OutputEndpointStatus,
// OutputEndpointMetrics, CheckpointResponse, CheckpointStatus), and the
// Python client parses them in python/feldera/stats.py (PipelineStatistics.
// from_dict: `state` one of its PipelineStatus names, `incarnation_uuid` a
// UUID, `start_time` seconds since the epoch, `transaction_status`) and
// python/feldera/pipeline.py (wait_for_completion polls
// global_metrics.pipeline_complete; checkpoint(wait=True) polls
// /checkpoint_status?incarnation_uuid=... until `success` equals the number
// POST /checkpoint answered).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { assertError, edgeWorker, ndjsonReader, until } from './support.mjs';

const SQL = `
CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR, amount DOUBLE);
CREATE MATERIALIZED VIEW totals AS SELECT name, COUNT(*) AS n, SUM(amount) AS total FROM t GROUP BY name;
`;
const DEFINITION = {
  program_code: SQL,
  outputs: { mirror: { view: 'totals', send_snapshot: true, sink: { type: 'kv', prefix: 'stats/mirror/' } } },
};

// openapi.json, GlobalControllerMetrics.required
const GLOBAL_METRICS_REQUIRED = ['state', 'bootstrap_in_progress', 'transaction_status', 'transaction_id',
  'transaction_initiators', 'concurrent_bootstrap_phase', 'rss_bytes', 'memory_pressure', 'memory_pressure_epoch',
  'cpu_msecs', 'uptime_msecs', 'start_time', 'incarnation_uuid', 'initial_start_time', 'storage_bytes',
  'storage_mb_secs', 'runtime_elapsed_msecs', 'buffered_input_records', 'buffered_input_bytes',
  'total_input_records', 'total_input_bytes', 'total_processed_records', 'total_processed_bytes',
  'total_completed_records', 'output_stall_msecs', 'total_initiated_steps', 'total_completed_steps',
  'pipeline_complete'];
// openapi.json, InputEndpointStatus.required and InputEndpointMetrics.required
const INPUT_REQUIRED = ['endpoint_name', 'config', 'metrics', 'paused', 'barrier'];
const INPUT_METRICS_REQUIRED = ['total_bytes', 'total_records', 'buffered_records', 'buffered_bytes',
  'num_transport_errors', 'num_parse_errors', 'end_of_input'];
// openapi.json, OutputEndpointStatus.required and OutputEndpointMetrics.required
const OUTPUT_REQUIRED = ['endpoint_name', 'config', 'metrics'];
const OUTPUT_METRICS_REQUIRED = ['transmitted_records', 'transmitted_bytes', 'queued_records', 'queued_batches',
  'buffered_records', 'buffered_batches', 'num_encode_errors', 'num_transport_errors',
  'total_processed_input_records', 'total_processed_steps', 'memory'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let edge;
before(async () => {
  edge = await edgeWorker();
  assert.equal((await edge.call('PUT', 's', DEFINITION)).status, 201);
});
after(() => edge?.stop());

function assertHas(object, fields, what) {
  for (const field of fields) assert.ok(field in object, `${what} has no '${field}': ${JSON.stringify(object)}`);
}

/** Asserts an error answer in Feldera's shape. */
const stats = async () => (await edge.call('GET', 's/stats')).body;
const rows = (from, to) => Array.from({ length: to - from }, (_, i) => ({ insert: { id: from + i, name: `n${(from + i) % 3}`, amount: 1 } }));

async function ingestAndWait(records) {
  const { body } = await edge.call('POST', 's/ingress/t', records);
  await until(async () => (await edge.call('GET', `s/completion_status?token=${body.token}`)).body.status === 'complete',
              { what: 'the ingest to complete' });
}

test("GET /stats: Feldera's ControllerStatus, with Freshet's figures beside it", async () => {
  await ingestAndWait(rows(0, 10));
  const body = await stats();
  assertHas(body, ['global_metrics', 'inputs', 'outputs'], 'ControllerStatus');
  const global = body.global_metrics;
  assertHas(global, GLOBAL_METRICS_REQUIRED, 'global_metrics');
  assert.equal(global.state, 'Running');
  assert.equal(global.transaction_status, 'NoTransaction');
  assert.match(global.incarnation_uuid, UUID);
  assert.ok(Number.isInteger(global.start_time) && Math.abs(global.start_time - Date.now() / 1000) < 600,
            `start_time ${global.start_time} is seconds since the epoch`);
  assert.equal(global.total_input_records, 10);
  assert.equal(global.total_processed_records, 10);
  assert.equal(global.total_completed_records, 10);
  assert.equal(global.buffered_input_records, 0);
  assert.equal(global.pipeline_complete, true);
  assert.ok(global.total_input_bytes > 0);
  assert.equal(global.total_initiated_steps, body.step);

  assert.ok(Array.isArray(body.inputs) && Array.isArray(body.outputs));
  const input = body.inputs.find((entry) => entry.endpoint_name === 't.api-ingress');
  assertHas(input, INPUT_REQUIRED, 'the input endpoint');
  assertHas(input.metrics, INPUT_METRICS_REQUIRED, 'the input metrics');
  assert.deepEqual(input.config, { stream: 't' });
  assert.equal(input.metrics.total_records, 10);
  assert.equal(input.paused, false);
  const output = body.outputs.find((entry) => entry.endpoint_name === 'totals.mirror');
  assertHas(output, OUTPUT_REQUIRED, 'the output endpoint');
  assertHas(output.metrics, OUTPUT_METRICS_REQUIRED, 'the output metrics');
  assert.deepEqual(output.config, { stream: 'totals' });
  assert.equal(output.metrics.transmitted_records, body.connectors.mirror.transmitted_records);
  assert.ok(output.metrics.transmitted_records >= 3);
  assert.equal(output.metrics.snapshot_sent, true, "Freshet's figures beside Feldera's");

  // Freshet's own figures, as before, beside Feldera's.
  assert.equal(body.state, 'running');
  assert.equal(typeof body.memory_bytes, 'number');
  assert.equal(body.tables.t.total_records, 10);
  assert.equal(body.connectors.mirror.view, 'totals');
});

test('buffered, processed and completed records; pipeline_complete follows the input', async () => {
  const before = (await stats()).global_metrics;
  assert.equal((await edge.call('POST', 's/pause')).status, 202);
  await edge.call('POST', 's/ingress/t', rows(100, 103));
  let global = (await stats()).global_metrics;
  assert.equal(global.state, 'Paused');
  assert.equal(global.total_input_records, before.total_input_records + 3);
  assert.equal(global.buffered_input_records, 3, 'paused: no step consumed them');
  assert.ok(global.buffered_input_bytes > 0);
  assert.equal(global.total_processed_records, before.total_input_records);
  assert.equal(global.total_completed_records, before.total_input_records);
  assert.equal(global.pipeline_complete, false);
  const input = (await edge.call('GET', 's/tables/t/connectors/api-ingress/stats')).body;
  assert.equal(input.metrics.buffered_records, 3);

  assert.equal((await edge.call('POST', 's/step')).status, 200);
  global = await until(async () => {
    const now = (await stats()).global_metrics;
    return now.pipeline_complete && now;
  }, { what: 'pipeline_complete after the step' });
  assert.equal(global.buffered_input_records, 0);
  assert.equal(global.total_processed_records, before.total_input_records + 3);
  assert.equal(global.total_completed_records, before.total_input_records + 3);
  assert.equal((await edge.call('POST', 's/resume')).status, 202);
  assert.equal((await stats()).global_metrics.state, 'Running');
});

test('an egress stream is an output endpoint, as Feldera lists its HTTP outputs', async () => {
  const response = await fetch(`${edge.url}/v0/pipelines/s/egress/totals?backpressure=true`, { method: 'POST' });
  const stream = ndjsonReader(response);
  const id = await until(async () => Object.keys((await stats()).egress)[0], { what: 'the egress stream' });
  const egress = (await stats()).outputs.find((entry) => entry.endpoint_name === `totals.api-egress-${id}`);
  assertHas(egress.metrics, OUTPUT_METRICS_REQUIRED, 'the egress stream metrics');
  const own = await edge.call('GET', `s/views/totals/connectors/api-egress-${id}/stats`);
  assert.equal(own.status, 200);
  assert.equal(own.body.endpoint_name, `totals.api-egress-${id}`);
  await stream.cancel();
});

test('connector stats: the input and output endpoints by table/view and connector; unknown ones 404', async () => {
  const body = await stats();
  const input = await edge.call('GET', 's/tables/t/connectors/api-ingress/stats');
  assert.equal(input.status, 200);
  assert.deepEqual({ ...input.body, metrics: undefined }, { ...body.inputs.find((e) => e.endpoint_name === 't.api-ingress'), metrics: undefined });
  assert.equal(input.body.metrics.total_records, body.global_metrics.total_input_records);
  const output = await edge.call('GET', 's/views/totals/connectors/mirror/stats');
  assert.equal(output.status, 200);
  assert.equal(output.body.endpoint_name, 'totals.mirror');
  assertHas(output.body.metrics, OUTPUT_METRICS_REQUIRED, 'the output metrics');

  // Feldera: ControllerError::UnknownInputEndpoint / UnknownOutputEndpoint, 404 (crates/adapterlib/src/errors/controller.rs).
  assertError(await edge.call('GET', 's/tables/t/connectors/kafka/stats'), 404, 'UnknownInputEndpoint');
  assertError(await edge.call('GET', 's/tables/nope/connectors/api-ingress/stats'), 404, 'UnknownInputEndpoint');
  assertError(await edge.call('GET', 's/views/totals/connectors/nope/stats'), 404, 'UnknownOutputEndpoint');
  assertError(await edge.call('GET', 's/views/other/connectors/mirror/stats'), 404, 'UnknownOutputEndpoint');
  const unknown = await edge.call('GET', 's/views/totals/connectors/nope/stats');
  assert.deepEqual(unknown.body.details, { endpoint_name: 'totals.nope' });
  assert.equal((await edge.call('POST', 's/views/totals/connectors/mirror/stats')).status, 405);
});

test('checkpoint and checkpoint_status, as checkpoint(wait=True) polls them; a restart is IncarnationUuidMismatch', async () => {
  const before = (await edge.call('GET', 's/checkpoint_status')).body;
  assert.deepEqual(Object.keys(before).sort(), ['failure', 'success']);
  const checkpoint = await edge.call('POST', 's/checkpoint');
  assert.equal(checkpoint.status, 200);
  const { checkpoint_sequence_number: sequence, incarnation_uuid: incarnation } = checkpoint.body;
  assert.ok(Number.isInteger(sequence));
  assert.match(incarnation, UUID);
  assert.equal(incarnation, (await stats()).global_metrics.incarnation_uuid);
  const status = await edge.call('GET', `s/checkpoint_status?incarnation_uuid=${incarnation}`);
  assert.equal(status.status, 200);
  assert.deepEqual(status.body, { success: sequence, failure: null });
  assert.ok(before.success === null || before.success < sequence);
  assertError(await edge.call('GET', `s/checkpoint_status?incarnation_uuid=${crypto.randomUUID()}`), 400, 'IncarnationUuidMismatch');
  assert.ok((await stats()).global_metrics.storage_bytes > 0, 'storage_bytes: the checkpoint written');

  await edge.restart();
  const after = await stats();
  assert.notEqual(after.global_metrics.incarnation_uuid, incarnation, 'a restart is a new incarnation');
  assert.equal(after.global_metrics.total_input_records, 13, 'input totals come back with the checkpoint');
  assert.equal(after.global_metrics.pipeline_complete, true);
  assertError(await edge.call('GET', `s/checkpoint_status?incarnation_uuid=${incarnation}`), 400, 'IncarnationUuidMismatch');
  assert.deepEqual((await edge.call('GET', 's/checkpoint_status')).body, { success: sequence, failure: null },
                   'the checkpoint resumed from is the last success');
});

test('an unknown pipeline is 404 on the new routes', async () => {
  for (const path of ['nope/checkpoint_status', 'nope/tables/t/connectors/api-ingress/stats', 'nope/views/v/connectors/c/stats']) {
    assert.equal((await edge.call('GET', path)).status, 404, path);
  }
});
