// A pipeline that could not resume when its Durable Object started because
// the engine trapped (INTERNAL: "the engine stopped") or ran out of its
// memory budget (OUT_OF_MEMORY) while restoring its checkpoint or replaying
// its log. Resuming again would fail the same way on every start of the
// object — an eviction loop that also costs the replay's CPU each time — so
// the failure is kept in the deployment record (stopped, with the error as
// Feldera's deployment_error) and the object starts stopped from then on,
// like a failed /start. The error says the way out: /clear, then /start.
// (Other failures keep their paths: CHECKPOINT_VERSION, checkpoint_upgrade.js,
// is cheap to find again; STORAGE_ERROR may be transient.)

import { FreshetError } from '../wasm-bindings/js/workerd.js';

const STOPS_FOR_GOOD = new Set(['INTERNAL', 'OUT_OF_MEMORY']);

/** Whether a failed resume with `error` is kept, not tried again at the next start. */
export function stopsForGood(error) {
  return STOPS_FOR_GOOD.has(error?.code);
}

/** `error` with the way out in its message (for the codes stopsForGood() keeps; others as they are). */
export function explainFailedResume(error, pipeline) {
  if (!stopsForGood(error)) return error;
  return new FreshetError(error.code,
    `pipeline '${pipeline}' could not resume from its checkpoint and input log: ${error.message}. Start it afresh ` +
    `without its state: POST /v0/pipelines/${pipeline}/clear, then POST /v0/pipelines/${pipeline}/start`);
}
