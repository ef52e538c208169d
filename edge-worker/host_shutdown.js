// POST /v0/pipelines/{p}/shutdown: the last words of a pipeline before the
// process that hosts workerd stops it. `npm start` (dev.mjs) calls it for
// every pipeline on SIGINT/SIGTERM, then kills workerd, so that a stop and
// a start lose nothing:
//   1. the object refuses new input from then on (503 CLOSED: not
//      acknowledged, so the client knows to send it again after the restart);
//   2. the input already accepted is stepped and its outputs reach every
//      connector (bounded by `flush_ms`, default FLUSH_MS);
//   3. a last checkpoint holds all of it, the connectors' progress included,
//      so the restarted object resumes exactly there.
// It exists only where a local host set FRESHET_LOCAL_HOST (local.mjs): a
// deployed worker has no such process, and answers NOT_FOUND, so nobody on
// the internet can make a pipeline refuse its input.

import { HttpError } from './http_errors.js';
import { incarnationOf } from './incarnation.js';

/** How long step 2 waits for the connectors by default. */
export const FLUSH_MS = 5_000;

/** Throws NOT_FOUND unless the worker runs under a local host that stops workerd itself. */
export function requireLocalHost(env) {
  if (env.FRESHET_LOCAL_HOST !== 'true') {
    throw new HttpError('NOT_FOUND', 'no route POST /shutdown under a pipeline (only a local host, edge-worker/local.mjs, has it)');
  }
}

/** The answer to input that arrives after the shutdown began. */
export function shuttingDownError(name) {
  return new HttpError('CLOSED', `pipeline '${name}' is shutting down with the edge worker (npm start was stopped): ` +
                       'this input was not accepted; send it again once the worker has restarted', { pipeline_name: name });
}

/**
 * Waits until every ingest of this incarnation has reached every connector, or `timeoutMs` passed.
 * A paused pipeline takes no step: its buffered input goes into the checkpoint as input instead.
 * @returns {Promise<boolean>} whether everything was delivered
 */
export async function connectorsFlushed(pipeline, timeoutMs) {
  if (pipeline.state !== 'running') return false;
  const tokens = incarnationOf(pipeline).pending.map(({ token }) => token);
  let timer;
  const timeout = new Promise((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const delivered = Promise.all(tokens.map((token) => pipeline.waitForCompletion(token))).then(() => true, () => false);
  try {
    return await Promise.race([delivered, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
