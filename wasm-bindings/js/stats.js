// p.stats(): the core's stats object (snake_case JSON) in the JS API's camelCase
// shape, plus what only JS knows: the step loop's state and the errors of
// sinks (a failed JS write is retried by JS, so the core never counts it).

import { errorViewStats } from './runtime_errors.js';

function endpointStats(core, connector) {
  return {
    view: core.view,
    transmittedRecords: core.transmitted_records,
    transmittedBatches: core.transmitted_batches,
    queuedRecords: core.queued_records,
    queuedChunks: core.queued_chunks,
    snapshotSent: core.snapshot_sent,
    snapshotRecords: core.snapshot_records,
    snapshotTotal: core.snapshot_total,
    resets: core.resets,
    resetInProgress: core.reset_in_progress,
    errors: core.errors + (connector?.errors ?? 0),
    lastError: connector?.lastError ?? core.last_error,
    droppedChunks: core.dropped_chunks,
    // Its view failed (a runtime error): the endpoint gets nothing more (view_failures.cpp).
    failed: core.failed ?? null,
  };
}

/**
 * @param {string} coreJson Engine.stats()
 * @param {{ state: string, connectors: Map<string, import('./connector.js').Connector>, wasmMemoryBytes: number }} js
 */
export function toStats(coreJson, js) {
  const core = JSON.parse(coreJson);
  const inputs = {};
  for (const [table, s] of Object.entries(core.inputs)) {
    inputs[table] = {
      totalRecords: s.total_records,
      totalBytes: s.total_bytes,
      parseErrors: s.parse_errors,
      lateRecords: s.late_records ?? 0,  // updates dropped by the table's LATENESS
    };
  }
  const outputs = {};
  for (const [name, s] of Object.entries(core.outputs)) outputs[name] = endpointStats(s, js.connectors.get(name));
  const egress = {};
  for (const [id, s] of Object.entries(core.egress)) egress[id] = endpointStats(s, null);
  const views = {};
  for (const [name, s] of Object.entries(core.views ?? {})) {
    // failed: a runtime error failed it (view_failures.cpp); nulledErrors: ones turned into NULL ('null' mode).
    views[name] = { failed: s.failed ?? null, nulledErrors: s.nulled_errors ?? 0 };
  }
  return {
    step: core.step,
    state: js.state,
    memoryBytes: core.memory_bytes,
    wasmMemoryBytes: js.wasmMemoryBytes,
    checkpoint: null,  // filled in by Pipeline.stats()
    inputs,
    outputs,
    egress,
    views,
    errorView: errorViewStats(core),
  };
}
