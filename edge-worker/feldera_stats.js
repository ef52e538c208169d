// Feldera's statistics shapes, built from the package's p.stats() and the
// pipeline's incarnation (incarnation.js):
//   GET .../stats                                  ControllerStatus
//   GET .../tables/{t}/connectors/{c}/stats        InputEndpointStatus
//   GET .../views/{v}/connectors/{c}/stats         OutputEndpointStatus
//   GET .../checkpoint_status                      CheckpointStatus
// (schemas of Feldera's openapi.json; the Python client reads them in
// python/feldera/stats.py and pipeline.py).
//
// Endpoints are named as Feldera names them, `{table or view}.{connector}`:
// each table has one input endpoint, `{table}.api-ingress`, which counts what
// POST .../ingress/{table} brought (Feldera keeps one per table and format,
// `{table}.api-ingress-{hash}`); each output connector of the definition is
// `{view}.{connector}`, each open egress stream `{view}.api-egress-{id}`.
//
// Figures Freshet does not measure are 0 (cpu_msecs, runtime_elapsed_msecs,
// storage_mb_secs, output_stall_msecs, transmitted_bytes, memory) rather than
// absent, because Feldera's schema requires them. Freshet's own figures stay
// beside Feldera's: at the top level (step, state, memory_bytes, checkpoint,
// egress, failure) and per table and connector (`tables`, `connectors`).

import { HttpError } from './http_errors.js';
import { incarnationOf } from './incarnation.js';
import { snakeCaseKeys } from './snake_case.js';

export const INGRESS_CONNECTOR = 'api-ingress';

/** Feldera's ControllerStatus for GET .../stats, with Freshet's figures beside it. */
export function controllerStatus(pipeline) {
  const stats = pipeline.stats();
  const progress = incarnationOf(pipeline).progress(pipeline);
  const { inputs, outputs, ...freshet } = snakeCaseKeys(stats);
  return {
    global_metrics: globalMetrics(pipeline, stats, progress),
    inputs: Object.keys(stats.inputs).map((table) => inputStatus(stats, progress, table)),
    outputs: [
      ...Object.keys(stats.outputs).map((name) => outputStatus(stats, progress, stats.outputs[name], name)),
      ...Object.entries(stats.egress).map(([id, egress]) => outputStatus(stats, progress, egress, `api-egress-${id}`)),
    ],
    suspend_error: null,
    checkpoint_activity: { status: 'idle' },  // a checkpoint is written within the request that asks for it
    permanent_checkpoint_errors: null,        // KV storage can always checkpoint
    ...freshet,
    tables: inputs,
    connectors: outputs,
  };
}

/** Feldera's InputEndpointStatus of table `table`'s connector `connector`; 404 UnknownInputEndpoint for another. */
export function inputConnectorStatus(pipeline, table, connector) {
  const stats = pipeline.stats();
  if (connector !== INGRESS_CONNECTOR || !(table in stats.inputs)) {
    throw new HttpError('UnknownInputEndpoint', `unknown input endpoint name '${table}.${connector}' (each table ` +
                        `has one input connector, '${INGRESS_CONNECTOR}': POST .../ingress/{table})`,
                        { endpoint_name: `${table}.${connector}` });
  }
  return inputStatus(stats, incarnationOf(pipeline).progress(pipeline), table);
}

/** Feldera's OutputEndpointStatus of view `view`'s connector `connector`; 404 UnknownOutputEndpoint for another. */
export function outputConnectorStatus(pipeline, view, connector) {
  const stats = pipeline.stats();
  const egress = /^api-egress-(.+)$/.exec(connector);
  const endpoint = egress ? stats.egress[egress[1]] : stats.outputs[connector];
  if (!endpoint || endpoint.view !== view) {
    throw new HttpError('UnknownOutputEndpoint', `unknown output endpoint name '${view}.${connector}'`,
                        { endpoint_name: `${view}.${connector}` });
  }
  return outputStatus(stats, incarnationOf(pipeline).progress(pipeline), endpoint, connector);
}

/**
 * Feldera's CheckpointStatus: `success` is the sequence number of the newest checkpoint in storage
 * (written or resumed from), `failure` the last one this incarnation failed to write. With an
 * `incarnation_uuid` of another incarnation, 400 IncarnationUuidMismatch, as Feldera answers.
 */
export function checkpointStatus(pipeline, incarnationUuid) {
  const incarnation = incarnationOf(pipeline);
  if (incarnationUuid && incarnationUuid !== incarnation.uuid) {
    throw new HttpError('IncarnationUuidMismatch', `the pipeline restarted since the checkpoint was requested: ` +
                        `incarnation '${incarnationUuid}' asked, the pipeline is now incarnation '${incarnation.uuid}'`,
                        { expected: incarnationUuid, actual: incarnation.uuid });
  }
  return { success: pipeline.stats().checkpoint.sequenceNumber, failure: incarnation.checkpointFailure };
}

// ---------------------------------------------------------------- builders

function sum(list, key) {
  return list.reduce((total, entry) => total + entry[key], 0);
}

function globalMetrics(pipeline, stats, progress) {
  const incarnation = incarnationOf(pipeline);
  const tables = Object.values(stats.inputs);
  const totalRecords = sum(tables, 'totalRecords');
  const totalBytes = sum(tables, 'totalBytes');
  const startTime = Math.floor(incarnation.startTime / 1000);
  return {
    // Feldera's PipelineState is Paused, Running or Terminated; a pipeline whose step failed
    // steps no more, which the client reads as Paused (the failure is in `failure` beside).
    state: stats.state === 'running' && !stats.failure ? 'Running' : 'Paused',
    bootstrap_in_progress: false,
    transaction_status: 'NoTransaction',  // Freshet has no transactions
    transaction_id: 0,
    transaction_msecs: null,
    transaction_records: null,
    transaction_initiators: { transaction_id: null, initiated_by_api: null, initiated_by_connectors: {} },
    commit_progress: null,
    concurrent_bootstrap_phase: 'Inactive',
    rss_bytes: stats.wasmMemoryBytes,  // the engine's wasm memory: the part of the isolate Freshet knows
    memory_pressure: 'low',
    memory_pressure_epoch: 0,
    cpu_msecs: 0,
    uptime_msecs: Date.now() - incarnation.startTime,
    start_time: startTime,
    incarnation_uuid: incarnation.uuid,
    initial_start_time: startTime,
    storage_bytes: incarnation.checkpointBytes,
    storage_mb_secs: 0,
    runtime_elapsed_msecs: 0,
    buffered_input_records: sum(progress.buffered, 'records'),
    buffered_input_bytes: sum(progress.buffered, 'bytes'),
    total_input_records: totalRecords,
    total_input_bytes: totalBytes,
    total_processed_records: totalRecords - sum(progress.buffered, 'records'),
    total_processed_bytes: totalBytes - sum(progress.buffered, 'bytes'),
    total_completed_records: totalRecords - sum(progress.incomplete, 'records'),
    output_stall_msecs: 0,
    total_initiated_steps: stats.step,
    total_completed_steps: progress.incomplete.length ? Math.min(stats.step, ...progress.incomplete.map((entry) => entry.step)) : stats.step,
    // Every record pushed has been stepped and its outputs handed to every connector and stream.
    pipeline_complete: progress.incomplete.length === 0 && !stats.failure,
  };
}

function inputStatus(stats, progress, table) {
  const input = stats.inputs[table];
  const buffered = progress.buffered.filter((entry) => entry.table === table);
  return {
    endpoint_name: `${table}.${INGRESS_CONNECTOR}`,
    config: { stream: table },
    metrics: {
      total_bytes: input.totalBytes,
      total_records: input.totalRecords,
      buffered_records: sum(buffered, 'records'),
      buffered_bytes: sum(buffered, 'bytes'),
      num_transport_errors: 0,
      num_parse_errors: input.parseErrors,
      end_of_input: false,  // HTTP input never ends
      late_records: input.lateRecords,  // Freshet's: updates dropped by the table's LATENESS
    },
    fatal_error: null,
    parse_errors: null,
    transport_errors: null,
    health: { status: 'Healthy', description: null },
    paused: false,   // Freshet pauses the pipeline, not single connectors
    barrier: false,
    completed_frontier: null,
  };
}

function outputStatus(stats, progress, endpoint, name) {
  const totalRecords = sum(Object.values(stats.inputs), 'totalRecords');
  const failure = stats.failure?.message ?? endpoint.failed?.message ?? null;  // the pipeline's, or its view's
  return {
    endpoint_name: `${endpoint.view}.${name}`,
    config: { stream: endpoint.view },
    metrics: {
      transmitted_records: endpoint.transmittedRecords,
      transmitted_bytes: 0,
      queued_records: endpoint.queuedRecords,
      queued_batches: endpoint.queuedChunks,
      buffered_records: 0,
      buffered_batches: 0,
      num_encode_errors: 0,
      num_transport_errors: endpoint.errors,
      total_processed_input_records: totalRecords - sum(progress.incomplete, 'records'),
      total_processed_steps: stats.step,
      memory: 0,
      // Freshet's own, beside Feldera's:
      transmitted_batches: endpoint.transmittedBatches,
      snapshot_sent: endpoint.snapshotSent,
      snapshot_records: endpoint.snapshotRecords,
      resets: endpoint.resets,
      reset_in_progress: endpoint.resetInProgress,
      dropped_chunks: endpoint.droppedChunks,
      last_error: endpoint.lastError ?? null,
    },
    fatal_error: failure,
    encode_errors: null,
    transport_errors: null,
    health: failure ? { status: 'Unhealthy', description: failure } : { status: 'Healthy', description: null },
  };
}
