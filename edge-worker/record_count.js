// How many records an ingress body holds, counted from its bytes before the
// engine parses it, so that a body over FRESHET_MAX_INGRESS_RECORDS is
// refused with nothing applied (limits.js).
//
// ## Design
// A record takes at least 2 bytes with its separator (`1,`, `{}` and a
// newline), so a body of fewer than 2 × limit bytes cannot hold more than
// `limit` records and is not scanned: the sample's batches of 1,000 or
// 10,000 orders never are. A larger one is scanned once, stopping as soon
// as the count passes the limit:
//   JSON array        values at depth 1 (strings and escapes skipped)
//   newline-delimited values at depth 0
//   CSV               lines that are not blank, a quoted field's newlines not counted
// The count is exact for well-formed input; for malformed input it may be
// anything, and the engine's parser then answers PARSE_ERROR.

import { HttpError } from './http_errors.js';

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, NEWLINE = 0x0a;
const OPENERS = new Set([0x5b, 0x7b]);  // [ {
const CLOSERS = new Set([0x5d, 0x7d]);  // ] }
const BLANK = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * 413 TOO_MANY_RECORDS when `body` holds more than `limit` records.
 * @param {Uint8Array} body
 * @param {{ format: 'json' | 'csv', array: boolean }} shape
 * @param {number} limit
 */
export function checkRecordCount(body, { format, array }, limit) {
  if (body.length < 2 * limit) return;
  const count = format === 'csv' ? countCsvLines(body, limit) : countJsonValues(body, array ? 1 : 0, limit);
  if (count <= limit) return;
  throw new HttpError('TOO_MANY_RECORDS', `the ingress holds more than ${limit} records (FRESHET_MAX_INGRESS_RECORDS): ` +
                      'split it into smaller requests; nothing of it was applied', { limit });
}

/** Values at `depth` (1: the elements of a top-level array; 0: newline-delimited values), up to limit + 1. */
export function countJsonValues(bytes, depth, limit = Infinity) {
  let level = 0, count = 0, inString = false, inValue = false;
  for (let i = 0; i < bytes.length && count <= limit; ++i) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) ++i;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (BLANK.has(byte) || byte === COMMA) {
      if (level === depth) inValue = false;  // a scalar at the record depth ends here
      continue;
    }
    if (CLOSERS.has(byte)) {
      --level;
      if (level === depth) inValue = false;
      continue;
    }
    // Any other byte at the record depth that is not inside a value starts one.
    if (level === depth && !inValue) {
      ++count;
      inValue = !OPENERS.has(byte);  // a container ends at its closer, a scalar at a separator
    }
    if (OPENERS.has(byte)) ++level;
    else if (byte === QUOTE) inString = true;
  }
  return count;
}

/** Lines that are not blank, a quoted field's newlines not counted, up to limit + 1. */
export function countCsvLines(bytes, limit = Infinity) {
  let count = 0, quoted = false, blank = true;
  for (let i = 0; i < bytes.length && count <= limit; ++i) {
    const byte = bytes[i];
    if (byte === QUOTE) quoted = !quoted;
    if (byte === NEWLINE && !quoted) {
      if (!blank) ++count;
      blank = true;
    } else if (!BLANK.has(byte)) {
      blank = false;
    }
  }
  return blank ? count : count + 1;
}
