// A pipeline whose newest checkpoint is of a format version this build does
// not read (CHECKPOINT_VERSION, wasm-bindings/js/checkpoint_versions.js):
// the Durable Object does not start it from an older checkpoint or from
// nothing on its own — it shows the error as the pipeline's
// deployment_error, with the two ways out over HTTP.

import { FreshetError } from '../wasm-bindings/js/workerd.js';

/** `error` as the edge worker reports it: for CHECKPOINT_VERSION, the HTTP way out; any other error as it is. */
export function explainIncompatibleCheckpoint(error, pipeline) {
  if (error?.code !== 'CHECKPOINT_VERSION') return error;
  const { version, readableVersions, sequenceNumber } = error.details;
  const explained = new FreshetError('CHECKPOINT_VERSION',
    `pipeline '${pipeline}': its newest checkpoint is in format version ${version}, and this edge worker reads ` +
    `format${readableVersions.length > 1 ? 's' : ''} ${readableVersions.join(', ')}; deploy the version of the worker that wrote it, or start afresh ` +
    `without its state: POST /v0/pipelines/${pipeline}/clear, then POST /v0/pipelines/${pipeline}/start`);
  explained.details = { sequence_number: sequenceNumber, version, readable_versions: readableVersions };  // Feldera's case
  return explained;
}
