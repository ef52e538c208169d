// Replay of the input log (input_log.js) over a restored checkpoint: the
// same ingests in the same order, so the engine hands out the same token
// numbers, and a step wherever a step ran, with the NOW() it had, so the
// same step numbers consume the same input and produce the same outputs.
//
//   checkpoint (step S, records < c) + log records c, c+1, ...
//   ingest record → ingest its payload; its token must be the logged one
//   step record   → one step; its number must be the logged one
//   failed_step   → a step failed on the ingests since the step before it
//                   (a table's input operator failed, the pipeline stopped):
//                   those are left out, so the resumed pipeline runs instead
//                   of failing again; their tokens stay unknown. No record
//                   follows it in that incarnation.
// A runtime error in a view (a division by zero, an overflow) fails that
// view, not the step: the step is a 'step' record, and replaying the same
// ingests in the same steps fails the same view at the same step again.
// Input after the last step record stays buffered for the next step.
// Anything that does not line up is CHECKPOINT_CORRUPT naming the record;
// an ingest or step that fails is its own error, with the record named.

import { FreshetError } from './errors.js';

/**
 * @param {{ header: object, payload: Uint8Array }[]} records the log after the checkpoint, in order
 * @param {{ ingest: (table: string, payload: Uint8Array, options: object) => number,
 *           step: (now: number | null) => number,
 *           cover: (incarnation: string, below: number) => void }} engine
 *   ingest() and step() return the engine's token and step numbers (and throw
 *   a FreshetError); cover() makes an incarnation's tokens answer
 */
export function replayLog(records, engine) {
  const poisoned = poisonedIngests(records);
  for (const { header, payload } of records) {
    if (poisoned.has(header.seq) || header.kind === 'failed_step') continue;
    try {
      if (header.kind === 'ingest') replayIngest(header, payload, engine);
      else if (header.kind === 'step') replayStep(header, engine);
      else throw mismatch(header, `unknown kind '${header.kind}'`);
    } catch (error) {
      if (!(error instanceof FreshetError)) throw error;
      const replayed = new FreshetError(error.code, `replaying the input log, record ${header.seq}: ${error.message}`);
      replayed.details = { ...error.details, logRecord: header.seq };
      throw replayed;
    }
  }
}

/** The seqs of the ingests a failed step took: those after the step (or start) before each failed_step record. */
function poisonedIngests(records) {
  const poisoned = new Set();
  let since = [];
  for (const { header } of records) {
    if (header.kind === 'ingest') since.push(header.seq);
    else if (header.kind === 'step') since = [];
    else if (header.kind === 'failed_step') {
      for (const seq of since) poisoned.add(seq);
      since = [];
    }
  }
  return poisoned;
}

function replayIngest(header, payload, engine) {
  const { table, format, updateFormat, array, incarnation, token } = header;
  const number = engine.ingest(table, payload, { format, updateFormat, array });
  // Ingests left out (a failed step's) were the last of their incarnation, so later numbers still match.
  if (number !== token) throw mismatch(header, `the ingest got token ${number}, the log says ${token}`);
  engine.cover(incarnation, token + 1);
}

function replayStep(header, engine) {
  const step = engine.step(header.now ?? null);
  if (step !== header.step) throw mismatch(header, `the step ran as step ${step}, the log says ${header.step}`);
}

function mismatch(header, what) {
  return new FreshetError('CHECKPOINT_CORRUPT', `the log does not match the checkpoint (${what})`);
}
