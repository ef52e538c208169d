// Named egress: the options of p.egress(view, { name, resumeFrom, retention })
// checked and handed to the engine (the core's open_named_egress, in
// core/src/pipeline/named_egress.cpp).
//
// A named egress lives on while no consumer is connected, keeps the chunks
// its consumer took (within `retention`) and is part of checkpoints, so a
// consumer that lost its connection, or a Pipeline resumed from a
// checkpoint, continues with chunk resumeFrom + 1: no snapshot again, no
// gap, no duplicate. Past the retention: FreshetError RESUME_UNAVAILABLE.

import { invalidArgument, requireString, unwrap } from './errors.js';

/**
 * Opens (or reconnects to) a named egress; returns the stream's engine id.
 * @param {any} engine the open engine
 * @param {{ view: string, index: string, sendSnapshot: boolean, maxQueuedChunks: number, onLag: string }} config
 * @param {{ name: string, resumeFrom?: number, retention?: { chunks?: number, bytes?: number } }} options
 */
export function openNamedEgress(engine, config, { name, resumeFrom, retention = {} }) {
  requireString(name, 'the egress name');
  if (!name) throw invalidArgument('the egress name must not be empty');
  if (resumeFrom !== undefined && !(Number.isSafeInteger(resumeFrom) && resumeFrom >= 0)) {
    throw invalidArgument(`resumeFrom is the sequenceNumber of the last chunk received (an integer >= 0), not ${resumeFrom}`);
  }
  const { chunks = -1, bytes = -1 } = retention;
  for (const [what, value] of [['retention.chunks', chunks], ['retention.bytes', bytes]]) {
    if (!Number.isSafeInteger(value) || value < -1) throw invalidArgument(`${what} is an integer >= 0, not ${value}`);
  }
  const { view, index, sendSnapshot, maxQueuedChunks, onLag } = config;
  return unwrap(engine.openNamedEgress(name, view, index, sendSnapshot, maxQueuedChunks, onLag,
    resumeFrom ?? -1, chunks, bytes)).number;
}

/** Closes a named egress for good (p.closeEgress). */
export function closeNamedEgress(engine, name) {
  requireString(name, 'the egress name');
  unwrap(engine.closeNamedEgress(name));
}
