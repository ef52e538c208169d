// The edge worker's own KV calls — wiping a pipeline's checkpoints and its
// connectors' prefixes when it is created afresh, replaced by another
// program, cleared or deleted — retried as the package retries the
// pipeline's own storage and sinks (wasm-bindings/js/retrying.js), so that a
// KV hiccup does not fail a PUT or a /clear. (The Pipeline wraps the storage
// and sinks it is given by itself; these are for calls made outside it.)

import { IncidentLog } from '../wasm-bindings/js/incidents.js';
import { withRetries } from '../wasm-bindings/js/retrying.js';
import { KVStorage } from '../wasm-bindings/js/workerd.js';
import { checkpointPrefix, sinkOf } from './definition.js';

/** Incidents of these calls, for the isolate (logged, not in a pipeline's stats). */
const incidents = new IncidentLog();

/** Pipeline `name`'s checkpoint blobs in KV, with retries. */
export function retriedCheckpointStorage(kv, name) {
  const storage = new KVStorage(kv, { prefix: checkpointPrefix(name) });
  return withRetries(storage, ['put', 'get', 'list', 'delete'], { label: `KVStorage('${storage.prefix}')`, incidents });
}

/** A connector's KV sink, with retries (for reset() outside a pipeline). */
export function retriedSink(kv, output) {
  return withRetries(sinkOf(kv, output), ['write', 'reset'], { label: `KVSink('${output.sink.prefix}')`, incidents });
}
