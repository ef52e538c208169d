// Resumable egress over HTTP: the `name` and `resume_from` parameters of
// POST .../egress/{view} (docs/http-api.md), and DELETE .../egress/{view}?name=
// that closes a named egress for good.
//
// A named egress lives in the pipeline (and its checkpoints) while no client
// is connected. Its wire lines carry the endpoint's chunk numbers, so
// `resume_from=N` — "I have every chunk up to and including N" — continues
// with chunk N+1 on a new connection: no snapshot again, no gap, no
// duplicate. When the pipeline no longer holds chunk N+1 (past the
// retention, or the pipeline went back to an older checkpoint) the answer is
// 410 RESUME_UNAVAILABLE: those chunks are gone for good, so the same request
// can never succeed; the client starts again with send_snapshot=true.

import { HttpError } from './http_errors.js';

/**
 * The named-egress parameters of an egress request, checked.
 * @param {string | null} name the `name` parameter
 * @param {string | null} resume the `resume_from` parameter
 * @returns {{ name?: string, resumeFrom?: number }}
 */
export function resumeParameters(name, resume) {
  if (name === null) {
    if (resume !== null) throw new HttpError('INVALID_REQUEST', "'resume_from' needs 'name' (the egress to resume)");
    return {};
  }
  if (!name) throw new HttpError('INVALID_REQUEST', "'name' must not be empty");
  if (resume === null) return { name };
  if (!/^\d{1,15}$/.test(resume)) {
    throw new HttpError('INVALID_REQUEST', `'resume_from' is the sequence_number of the last chunk received, not '${resume}'`);
  }
  return { name, resumeFrom: Number(resume) };
}

/**
 * Opens `view`'s egress stream on `pipeline` (named when the request says so);
 * RESUME_UNAVAILABLE comes back with the way out in its details.
 */
export function openEgress(pipeline, view, options) {
  try {
    return pipeline.egress(view, options);
  } catch (error) {
    if (error?.code !== 'RESUME_UNAVAILABLE') throw error;
    throw new HttpError('RESUME_UNAVAILABLE', error.message, {
      name: options.name, resume_from: options.resumeFrom, retry_with: 'send_snapshot=true without resume_from',
    });
  }
}
