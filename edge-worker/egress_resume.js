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
 * The named-egress parameters of an egress request, checked: `name`,
 * `resume_from`, and the retention (`retention_chunks`, `retention_bytes`;
 * bytes at most `maxRetentionBytes`, FRESHET_MAX_EGRESS_RETENTION_BYTES).
 * @param {{ name: string | null, resume: string | null, chunks: string | null, bytes: string | null }} texts the parameters as sent
 * @param {number} maxRetentionBytes
 * @returns {{ name?: string, resumeFrom?: number, retention?: { chunks?: number, bytes?: number } }}
 */
export function resumeParameters(texts, maxRetentionBytes) {
  const { name, resume } = texts;
  const chunks = count(texts.chunks, 'retention_chunks');
  const bytes = count(texts.bytes, 'retention_bytes');
  if (name === null) {
    if (resume !== null) throw new HttpError('INVALID_REQUEST', "'resume_from' needs 'name' (the egress to resume)");
    if (chunks !== undefined || bytes !== undefined) {
      throw new HttpError('INVALID_REQUEST', "'retention_chunks' and 'retention_bytes' need 'name' (only a named egress retains chunks)");
    }
    return {};
  }
  if (!name) throw new HttpError('INVALID_REQUEST', "'name' must not be empty");
  if (bytes > maxRetentionBytes) {
    throw new HttpError('LIMIT_EXCEEDED', `'retention_bytes' is ${bytes}; the limit is ${maxRetentionBytes} ` +
                        '(FRESHET_MAX_EGRESS_RETENTION_BYTES)', { retention_bytes: bytes, limit: maxRetentionBytes });
  }
  const retention = chunks === undefined && bytes === undefined ? {} : { retention: { chunks, bytes } };
  if (resume === null) return { name, ...retention };
  if (!/^\d{1,15}$/.test(resume)) {
    throw new HttpError('INVALID_REQUEST', `'resume_from' is the sequence_number of the last chunk received, not '${resume}'`);
  }
  return { name, resumeFrom: Number(resume), ...retention };
}

/** A positive integer parameter, or undefined when absent. */
function count(text, parameter) {
  if (text === null) return undefined;
  if (!/^[1-9]\d{0,14}$/.test(text)) throw new HttpError('INVALID_REQUEST', `'${parameter}' is a positive integer, not '${text}'`);
  return Number(text);
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
